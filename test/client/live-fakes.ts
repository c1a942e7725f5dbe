/**
 * Stand-ins for the browser parts live updates use: EventSource, Web Locks, BroadcastChannel and the
 * online/offline events, so the tests can drive every connection, failure and hand-over by hand.
 */
import { startLive, type LiveEnvironment } from '../../client/live/index.js'
import type { EventSourceLike, LiveName, LivePayloads } from '../../client/live/messages.js'
import type { ChannelLike, LocksLike } from '../../client/live/shared.js'
import { until } from './helpers.js'

export class FakeEventSource implements EventSourceLike {
  readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>()
  closed = false
  constructor(readonly url: string) {}

  get query(): URLSearchParams {
    return new URL(this.url, 'http://localhost').searchParams
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }

  close(): void {
    this.closed = true
  }

  private dispatch(type: string, init: MessageEventInit = {}): void {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, init))
  }

  open(): void {
    this.dispatch('open')
  }

  fail(): void {
    this.dispatch('error')
  }

  /** A named event as the server frames it: JSON data and an id. */
  emit(name: string, data: unknown, id: string): void {
    this.dispatch(name, { data: JSON.stringify(data), lastEventId: id })
  }
}

/** Records every EventSource opened, newest last. */
export function sources() {
  const opened: FakeEventSource[] = []
  return {
    opened,
    open: (url: string) => {
      const source = new FakeEventSource(url)
      opened.push(source)
      return source
    },
    get last(): FakeEventSource {
      const last = opened.at(-1)
      if (!last) throw new Error('no EventSource was opened')
      return last
    },
  }
}

/** One browser's Web Locks: exclusive, queued in order, freed when the holder's promise settles. */
export function fakeLocks(): LocksLike & { holder(): number | undefined; queued(): number } {
  let held = false
  let holder: number | undefined
  let nextTab = 1
  const queue: { grant: () => void; signal: AbortSignal | undefined }[] = []
  const run = (callback: (lock: unknown) => unknown, tab: number) => {
    held = true
    holder = tab
    return Promise.resolve(callback({ name: 'chirp-live' })).finally(() => {
      held = false
      holder = undefined
      const next = queue.shift()
      next?.grant()
    })
  }
  return {
    request(_name, options, callback) {
      const tab = nextTab++
      if (!held) return run(callback, tab)
      if (options.ifAvailable) return Promise.resolve(callback(null))
      return new Promise((resolve, reject) => {
        const entry = { grant: () => void run(callback, tab).then(resolve, reject), signal: options.signal }
        queue.push(entry)
        options.signal?.addEventListener('abort', () => {
          const at = queue.indexOf(entry)
          if (at !== -1) queue.splice(at, 1)
          reject(new DOMException('aborted', 'AbortError'))
        })
      })
    },
    holder: () => holder,
    queued: () => queue.length,
  }
}

/** BroadcastChannels of one browser: a message reaches every other open channel of the same name, never its sender. */
export function fakeChannels() {
  const open = new Set<FakeChannel>()
  class FakeChannel implements ChannelLike {
    readonly listeners: ((event: MessageEvent) => void)[] = []
    constructor(readonly name: string) {
      open.add(this)
    }
    postMessage(message: unknown): void {
      const copy: unknown = structuredClone(message)
      for (const other of open) {
        if (other === this || other.name !== this.name) continue
        for (const listener of other.listeners) listener(new MessageEvent('message', { data: copy }))
      }
    }
    addEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
      this.listeners.push(listener)
    }
    close(): void {
      open.delete(this)
    }
  }
  return { open: (name: string): ChannelLike => new FakeChannel(name), count: () => open.size }
}

/** A network whose online and offline events the test fires. */
export function fakeNetwork(onLine = true) {
  const target = new EventTarget()
  return Object.assign(target, {
    onLine,
    go(state: 'online' | 'offline') {
      this.onLine = state === 'online'
      target.dispatchEvent(new Event(state))
    },
  })
}

/** An environment for startLive with one tab's stream of its own, and timers the test fires. */
export function fakeEnvironment(overrides: Partial<LiveEnvironment> = {}) {
  const streams = sources()
  const network = fakeNetwork()
  const timers = fakeTimers()
  const env: LiveEnvironment = {
    openSource: streams.open,
    locks: undefined,
    openChannel: undefined,
    network,
    connection: { random: () => 0.5, setTimer: timers.set, clearTimer: timers.clear },
    ...overrides,
  }
  return { env, streams, network, timers }
}

/** Timers that only run when the test says so; `pending` lists the delays still waiting. */
export function fakeTimers() {
  type Timer = { run: () => void; ms: number; cancelled: boolean }
  const all: Timer[] = []
  return {
    set: (run: () => void, ms: number): Timer => {
      const timer = { run, ms, cancelled: false }
      all.push(timer)
      return timer
    },
    clear: (timer: unknown) => void ((timer as Timer).cancelled = true),
    pending: () => all.filter((timer) => !timer.cancelled).map((timer) => timer.ms),
    /** Runs every timer still waiting, as if its time had come. */
    fire(): void {
      for (const timer of all.splice(0)) if (!timer.cancelled) timer.run()
    },
  }
}

/**
 * Starts live updates as the app does, over a fake stream that is opened once the client asks for it, and
 * stopped when the test ends. `send` delivers one event as the server frames it, ids rising; its data is
 * typed by the server's contract, so a test cannot send an event of a shape the server no longer makes.
 */
export async function startFakeLive(t: { teardown(fn: () => unknown): void }) {
  const { env, streams } = fakeEnvironment()
  t.teardown(startLive(env))
  await until(() => streams.opened.length === 1)
  streams.last.open()
  let id = 100
  const send = <K extends LiveName>(name: K, data: LivePayloads[K]) => streams.last.emit(name, data, String(++id))
  return { streams, send }
}
