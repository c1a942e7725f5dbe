import type { LiveConnection, RawMessage } from './messages.js'

/** The Web Lock held by the tab that owns the stream, and the channel it relays events on. */
const LIVE_LOCK = 'chirp-live'
const LIVE_CHANNEL = 'chirp-live'

/** The parts of the Web Locks API used here, so tests can stand in for it. */
export interface LocksLike {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => unknown,
  ): Promise<unknown>
}

export interface ChannelLike {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  close(): void
}

export interface ShareOptions {
  /** Whose stream this is: a tab still showing another user (after a logout elsewhere) ignores it. */
  user: string
  locks: LocksLike | undefined
  openChannel: ((name: string) => ChannelLike) | undefined
  connect: (options: {
    lastEventId: string | undefined
    resumes: boolean
    onMessage: (message: RawMessage) => void
  }) => LiveConnection
  apply: (message: RawMessage) => void
}

type Relay = { user: string; message: RawMessage }

function isRelay(value: unknown): value is Relay {
  const relay = value as Partial<Relay> | null
  return typeof relay?.user === 'string' && typeof relay.message?.name === 'string'
}

/**
 * One stream per browser, however many tabs: browsers allow six connections per host, and
 * every tab holding its own stream would soon starve the app's ordinary calls. The tab that gets the
 * Web Lock opens the stream and relays each event on a BroadcastChannel; when that tab closes, the
 * browser frees the lock and a waiting tab takes over, resuming from the last id it was relayed.
 * Without those APIs, each tab keeps a stream of its own.
 */
export function shareConnection(options: ShareOptions): { stop: () => void } {
  const { locks, openChannel } = options
  if (!locks || !openChannel) {
    const connection = options.connect({ lastEventId: undefined, resumes: false, onMessage: options.apply })
    return { stop: () => connection.close() }
  }

  const channel = openChannel(LIVE_CHANNEL)
  const abort = new AbortController()
  let stopped = false
  let leading = false
  let follower = false
  let lastId: string | undefined
  let release: (() => void) | undefined

  channel.addEventListener('message', (event) => {
    const relay: unknown = event.data
    if (leading || stopped || !isRelay(relay) || relay.user !== options.user) return
    if (relay.message.id !== undefined) lastId = relay.message.id
    options.apply(relay.message)
  })

  // Held until stop() or the tab's end; the lock is the leadership.
  const lead = () =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve()
      leading = true
      const connection = options.connect({
        lastEventId: lastId,
        // A tab that waited for the lock follows a stream that ended; the gap must be accounted for.
        resumes: follower,
        onMessage: (message) => {
          channel.postMessage({ user: options.user, message } satisfies Relay)
          options.apply(message)
        },
      })
      release = () => {
        connection.close()
        resolve()
      }
    })

  void (async () => {
    const led = await locks.request(LIVE_LOCK, { ifAvailable: true }, async (lock) => {
      if (lock === null) return false
      await lead()
      return true
    })
    if (led || stopped) return
    follower = true
    await locks.request(LIVE_LOCK, { signal: abort.signal }, lead)
  })().catch((error: unknown) => {
    // Aborted by stop() while waiting: nothing was held.
    if (!(error instanceof Error && error.name === 'AbortError')) console.error('live updates could not start', error)
  })

  return {
    stop() {
      stopped = true
      abort.abort()
      release?.()
      channel.close()
    },
  }
}
