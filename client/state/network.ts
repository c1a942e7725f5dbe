import { proxy } from 'valtio'
import { setReachabilityHandler } from '../api/http.js'

/**
 * This tab's event stream: 'unknown' while it has none of its own to judge by (signed out, or before the
 * tab holding the browser's one stream has said how it is).
 */
export type StreamState = 'open' | 'down' | 'unknown'

/** Why the app is cut off: the browser says it is offline, or the server answers neither stream nor calls. */
export type OfflineReason = 'offline' | 'unreachable'

const initial = () => ({
  /** navigator.onLine, kept by the window's online and offline events; a reset (a sign-out) reads it afresh. */
  browserOnline: typeof navigator === 'undefined' || navigator.onLine,
  /** Whether the last API call reached the server. */
  apiReachable: true,
  stream: 'unknown' as StreamState,
})

export const network = proxy(initial())

/**
 * A failed call alone does not make the app offline while its stream is open, and a dropped stream alone
 * does not while calls get through (it may be refused, or reconnecting): both must fail.
 */
export function offlineReason(state: Readonly<ReturnType<typeof initial>>): OfflineReason | null {
  if (!state.browserOnline) return 'offline'
  return !state.apiReachable && state.stream !== 'open' ? 'unreachable' : null
}

export function setStreamState(state: StreamState): void {
  network.stream = state
}

type NetworkEvents = Pick<Window, 'addEventListener' | 'removeEventListener'>

/** Follows the browser's word and every call's outcome; returns a function that stops. */
export function watchNetwork(target: NetworkEvents = window, onLine = () => navigator.onLine): () => void {
  network.browserOnline = onLine()
  const online = () => {
    network.browserOnline = true
    // Back on the network, the server is presumed reachable until a call says otherwise; the stream
    // reconnects at once, and its ticket call is the first to tell.
    network.apiReachable = true
  }
  const offline = () => {
    network.browserOnline = false
  }
  target.addEventListener('online', online)
  target.addEventListener('offline', offline)
  setReachabilityHandler((reachable) => {
    network.apiReachable = reachable
  })
  return () => {
    target.removeEventListener('online', online)
    target.removeEventListener('offline', offline)
    setReachabilityHandler(() => {})
  }
}

export function reset(): void {
  Object.assign(network, initial())
}
