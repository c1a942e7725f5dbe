import type { EventSourceLike, LiveConnection, RawMessage } from './messages.js'

export interface ConnectionOptions {
  /** The event names to listen for: EventSource only dispatches named events to their own listeners. */
  names: readonly string[]
  getTicket: () => Promise<string>
  streamUrl: (ticket: string, lastEventId: string | undefined) => string
  openSource: (url: string) => EventSourceLike
  onMessage: (message: RawMessage) => void
  /** Resume after this event, as when a tab takes the connection over from another. */
  lastEventId?: string | undefined
  /**
   * Whether an earlier connection came before this one. If so and no event id is known, nothing tells what
   * was missed in between, so the first open is treated as a reset.
   */
  resumes?: boolean
  startOffline?: boolean
  random?: () => number
  setTimer?: (run: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

/** The first retry waits 0.5–1 s; each failure in a row doubles that, up to 15–30 s. */
const BASE_DELAY_MS = 1000
export const MAX_DELAY_MS = 30_000

/** How long to wait before retry number `failures` (0 for the first): doubling, bounded, half of it random. */
export function retryDelay(failures: number, random: () => number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(failures, 16))
  // The random half keeps browsers that lost the server together from all coming back in the same instant.
  return ceiling / 2 + (random() * ceiling) / 2
}

/**
 * One event stream that reconnects by itself. Each ticket works once, so the browser's own reconnect (which
 * reuses the URL) would always fail: on any error the EventSource is closed and a new one opened with a fresh
 * ticket and the last event id, after a back-off that grows while failures repeat.
 */
export function openConnection(options: ConnectionOptions): LiveConnection {
  const random = options.random ?? Math.random
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms))
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>))
  let lastId = options.lastEventId
  let resumes = options.resumes ?? false
  let failures = 0
  let source: EventSourceLike | undefined
  let timer: unknown
  let state: 'connecting' | 'open' | 'waiting' | 'offline' | 'closed' = 'connecting'
  // Bumped whenever a pending ticket request must be forgotten (closed, offline, or superseded).
  let attempt = 0

  function drop(): void {
    source?.close()
    source = undefined
    if (timer !== undefined) clearTimer(timer)
    timer = undefined
  }

  function retry(): void {
    if (state === 'closed' || state === 'offline') return
    state = 'waiting'
    timer = setTimer(
      () => {
        timer = undefined
        void connect()
      },
      retryDelay(failures, random),
    )
    failures += 1
  }

  function listen(es: EventSourceLike): void {
    es.addEventListener('open', () => {
      if (source !== es) return
      state = 'open'
      failures = 0
      if (resumes && lastId === undefined) options.onMessage({ name: 'reset', data: {}, id: undefined })
      resumes = true
    })
    es.addEventListener('error', () => {
      if (source !== es) return
      drop()
      retry()
    })
    for (const name of options.names) {
      es.addEventListener(name, (event) => {
        if (source !== es) return
        const id = event.lastEventId || undefined
        if (id !== undefined) lastId = id
        let data: unknown
        try {
          data = JSON.parse(String(event.data))
        } catch {
          return
        }
        try {
          options.onMessage({ name, data, id })
        } catch (error) {
          // One event that cannot be applied must not stop the ones after it.
          console.error(`live event ${name} could not be applied`, error)
        }
      })
    }
  }

  async function connect(): Promise<void> {
    const mine = ++attempt
    state = 'connecting'
    let ticket: string
    try {
      ticket = await options.getTicket()
    } catch {
      // A 401 ends the session, which closes this connection; anything else is worth another try.
      if (mine === attempt) retry()
      return
    }
    if (mine !== attempt || state !== 'connecting') return
    const es = options.openSource(options.streamUrl(ticket, lastId))
    source = es
    listen(es)
  }

  if (options.startOffline) state = 'offline'
  else void connect()

  return {
    get lastEventId() {
      return lastId
    },
    online() {
      if (state === 'open' || state === 'connecting' || state === 'closed') return
      drop()
      failures = 0
      void connect()
    },
    offline() {
      if (state === 'closed') return
      attempt += 1
      drop()
      state = 'offline'
    },
    close() {
      attempt += 1
      drop()
      state = 'closed'
    },
  }
}
