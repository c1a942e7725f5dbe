import { subscribeKey } from 'valtio/utils'
import { apiGetEventTicket, eventStreamUrl } from '../api/events.js'
import { setStreamState, type StreamState } from '../state/network.js'
import { session } from '../state/session.js'
import { applyLiveEvent, LIVE_NAMES } from './apply.js'
import { openConnection, type ConnectionOptions } from './connection.js'
import type { EventSourceLike, LiveConnection } from './messages.js'
import { shareConnection, type ChannelLike, type LocksLike } from './shared.js'
import { reportingSources, streamStateMessage, streamStateOf } from './stream-state.js'

/** What live updates take from the browser; tests pass stand-ins. */
export interface LiveEnvironment {
  openSource: (url: string) => EventSourceLike
  locks: LocksLike | undefined
  openChannel: ((name: string) => ChannelLike) | undefined
  /** Where `online` and `offline` are announced, and whether the browser is online now. */
  network: Pick<Window, 'addEventListener' | 'removeEventListener'> & { onLine: boolean }
  connection?: Partial<ConnectionOptions>
}

function browserEnvironment(): LiveEnvironment {
  return {
    openSource: (url) => new EventSource(url),
    // Web Locks exist only in secure contexts (https, or localhost); elsewhere each tab streams for itself.
    locks: typeof navigator !== 'undefined' ? navigator.locks : undefined,
    openChannel: typeof BroadcastChannel === 'function' ? (name) => new BroadcastChannel(name) : undefined,
    network: {
      addEventListener: window.addEventListener.bind(window),
      removeEventListener: window.removeEventListener.bind(window),
      get onLine() {
        return navigator.onLine
      },
    },
  }
}

/** A connection that also follows the browser's own word on the network. */
function connectWith(
  env: LiveEnvironment,
  options: Pick<ConnectionOptions, 'lastEventId' | 'resumes' | 'onMessage'>,
): LiveConnection {
  const base = {
    names: LIVE_NAMES,
    getTicket: apiGetEventTicket,
    streamUrl: eventStreamUrl,
    openSource: env.openSource,
    startOffline: !env.network.onLine,
    ...env.connection,
  }
  // Sent along with the events, so that every tab knows whether the stream is open (the offline banner).
  const report = (state: StreamState) => options.onMessage(streamStateMessage(state))
  const connection = openConnection({
    ...base,
    openSource: reportingSources(base.openSource, report),
    getTicket: () =>
      base.getTicket().catch((error: unknown) => {
        report('down')
        throw error
      }),
    ...options,
  })
  const online = () => connection.online()
  const offline = () => connection.offline()
  env.network.addEventListener('online', online)
  env.network.addEventListener('offline', offline)
  return {
    get lastEventId() {
      return connection.lastEventId
    },
    online,
    offline,
    close() {
      env.network.removeEventListener('online', online)
      env.network.removeEventListener('offline', offline)
      connection.close()
    },
  }
}

/**
 * Live updates for as long as someone is signed in: they start on login (or with a stored session) and
 * stop on logout. Returns a function that stops them for good.
 */
export function startLive(env: LiveEnvironment = browserEnvironment()): () => void {
  let running: { stop(): void } | undefined
  let runningFor = ''

  const sync = () => {
    const who = session.token && session.username ? `${session.username}\n${session.token}` : ''
    if (who === runningFor) return
    running?.stop()
    running = undefined
    runningFor = who
    setStreamState('unknown')
    const username = session.username
    if (!who || !username) return
    running = shareConnection({
      user: username,
      locks: env.locks,
      openChannel: env.openChannel,
      connect: (options) => connectWith(env, options),
      apply: (message) => {
        const state = streamStateOf(message)
        if (state) setStreamState(state)
        else applyLiveEvent(message)
      },
    })
  }

  sync()
  const unsubscribeToken = subscribeKey(session, 'token', sync)
  const unsubscribeUser = subscribeKey(session, 'username', sync)
  return () => {
    unsubscribeToken()
    unsubscribeUser()
    running?.stop()
    running = undefined
    runningFor = ''
    setStreamState('unknown')
  }
}
