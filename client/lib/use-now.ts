import { createContext, useContext, useSyncExternalStore } from 'react'

/** How often relative times ('5 minutes ago') are brought up to date while on screen. */
const TICK_MS = 15_000

const listeners = new Set<() => void>()
let now = currentSecond()
let timer: ReturnType<typeof setInterval> | undefined

function currentSecond(): number {
  return Math.floor(Date.now() / 1000) * 1000
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  timer ??= setInterval(() => {
    now = currentSecond()
    for (const notify of listeners) notify()
  }, TICK_MS)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer)
      timer = undefined
    }
  }
}

function read(): number {
  // With no clock running, the stored time may be old: take a fresh one (to the second, so
  // that React's repeated reads within one render agree).
  if (listeners.size === 0) now = currentSecond()
  return now
}

/**
 * True inside a part of the page the browser skips while it is off screen (a long list's group of cards):
 * its times do not follow the clock until it is on screen again, when they catch up at once. At each
 * tick the clock then draws again the times on screen, not those of every card of the list.
 */
export const OffScreen = createContext(false)

const stayStill = () => () => {}

/** The current time, shared by every component that shows one and refreshed every few seconds. */
export function useNow(): number {
  const offScreen = useContext(OffScreen)
  return useSyncExternalStore(offScreen ? stayStill : subscribe, read, read)
}
