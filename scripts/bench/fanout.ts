import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { call, type Session } from './api.js'
import type { Bench, BenchBase } from './context.js'
import type { StreamTarget } from './fanout-worker.js'
import { percentile } from './load.js'

const EVENT_SPACING_MS = 300
/**
 * A Mastodon socket is open once its upgrade is answered; the hub registers it a moment later (its place
 * and the reader's follows are read first), so the writes wait this long after the last one opens.
 */
const SOCKETS_SETTLE_MS = 1000
const DRAIN_MS = 5000
/** Threads that hold the streams: every core but the one the server needs while it fans an event out. */
const THREADS = Math.max(1, availableParallelism() - 1)

type Reply = { open?: number; error?: string; arrivals?: [number, number][][] }

/** A worker thread holding some of the streams (fanout-worker.ts). */
function startThread(host: string, port: number, marker: string) {
  // A worker does not inherit the TypeScript loader that --import tsx gave this thread: it registers its own.
  const entry = JSON.stringify(new URL('./fanout-worker.ts', import.meta.url).href)
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}) })`
  const worker = new Worker(bootstrap, { eval: true, workerData: { host, port, marker } })
  const next = async (): Promise<Reply> => {
    const [reply] = (await once(worker, 'message')) as [Reply]
    if (reply.error) throw new Error(reply.error)
    return reply
  }
  return {
    /** Opens each stream; resolves once every one is open. */
    async open(targets: StreamTarget[]): Promise<void> {
      if (targets.length === 0) return
      worker.postMessage({ open: targets })
      await next()
    },
    async arrivals(): Promise<[number, number][][]> {
      worker.postMessage('collect')
      return (await next()).arrivals ?? []
    },
    async close(): Promise<void> {
      worker.postMessage('close')
      await once(worker, 'exit')
    },
  }
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T)
  })
  await Promise.all(lanes)
}

export interface FanoutResult {
  clients: number
  events: number
  delivered: number
  share: number
  p50: number
  p99: number
  max: number
  writeP50: number
}

/** Where a fan-out runs: the streams of `reader`'s tickets on its instance, and who writes the posts. */
export interface FanoutTarget {
  reader: Session
  /** They take turns, one post each; with several instances, each one's deliveries are measured apart. */
  writers: readonly Session[]
  /**
   * Tickets asked for before their streams are opened; all at once when absent. PostgreSQL keeps only a
   * user's newest 20 unredeemed tickets, so there they go in smaller batches.
   */
  ticketsAhead?: number
  /**
   * Rounds of `events` posts from each writer, on the same streams; each round is measured on its own,
   * so one late event on a busy machine weighs on one round's p99, not on every round's. One by default.
   */
  rounds?: number
  /**
   * Mastodon's streaming API instead of Chirp's event stream: each client a WebSocket to
   * /api/v1/streaming subscribed to the public stream with the reader's token, every post an `update`.
   */
  mastodon?: boolean
}

const now = () => performance.timeOrigin + performance.now()

/** Each writer's share of the arrivals: its posts' latencies on every stream, and its writes' own round trips. */
function resultOf(clients: number, events: number, latencies: number[], acks: number[]): FanoutResult {
  latencies.sort((a, b) => a - b)
  acks.sort((a, b) => a - b)
  return {
    clients,
    events,
    delivered: latencies.length,
    share: latencies.length / (clients * events),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    /** The writes' own round trips: the commit to disk, then the fan-out, then the answer. */
    writeP50: percentile(acks, 0.5),
  }
}

/**
 * `clients` streams on the reader's instance, each from its own ticket, then in each round `events` posts
 * from each writer, taking turns; every stream should see every post. Latency runs from just before the
 * write is sent to the moment a stream's bytes carrying it arrive, so it includes the write's own commit.
 * The result holds, for each round, one result for each writer.
 */
export async function fanoutTo(
  bench: BenchBase,
  target: FanoutTarget,
  clients: number,
  label: string,
): Promise<FanoutResult[][]> {
  const { reader, writers } = target
  const events = bench.settings.fanoutEvents
  const rounds = target.rounds ?? 1
  const runId = randomBytes(4).toString('hex')
  const marker = `fanout-${runId}-`
  bench.log(`${label}: connecting ${clients} streams`)
  const { hostname, port } = new URL(reader.base)
  const threads = Array.from({ length: THREADS }, () => startThread(hostname, Number(port), marker))
  try {
    const batch = Math.min(clients, target.ticketsAhead ?? clients)
    for (let opened = 0; opened < clients; opened += batch) {
      const targets: StreamTarget[] = []
      await pool(Array.from({ length: Math.min(batch, clients - opened) }), 16, async () => {
        if (target.mastodon) {
          targets.push({ path: '/api/v1/streaming?stream=public', token: reader.token })
          return
        }
        const reply = await call<{ ticket: string }>(reader.base, 'POST', '/api/events/ticket', { token: reader.token })
        targets.push({ path: `/api/events?ticket=${encodeURIComponent(reply.ticket)}` })
      })
      const share = Math.ceil(targets.length / THREADS)
      await Promise.all(threads.map((thread, i) => thread.open(targets.slice(i * share, (i + 1) * share))))
    }
    if (target.mastodon) await new Promise((resolve) => setTimeout(resolve, SOCKETS_SETTLE_MS))
    const perRound = events * writers.length
    const total = perRound * rounds
    bench.log(`  ${clients} streams open; writing ${total} posts, one every ${EVENT_SPACING_MS} ms`)
    // Post `seq` is written by writers[seq % writers] in round floor(seq / perRound): [round][writer].
    const slot = (seq: number) => [Math.floor(seq / perRound), seq % writers.length] as const
    const sentAt: number[] = []
    const acks = Array.from({ length: rounds }, () => writers.map((): number[] => []))
    for (let seq = 0; seq < total; seq++) {
      const [round, writer] = slot(seq)
      const session = writers[writer] as Session
      sentAt[seq] = now()
      await call(session.base, 'POST', '/api/posts', {
        token: session.token,
        body: { content: `${marker}${seq} live fan-out check` },
        expect: 201,
      })
      acks[round]?.[writer]?.push(now() - (sentAt[seq] as number))
      await new Promise((resolve) => setTimeout(resolve, EVENT_SPACING_MS))
    }
    const expected = clients * total
    const deadline = performance.now() + DRAIN_MS
    let streams = (await Promise.all(threads.map((thread) => thread.arrivals()))).flat()
    const count = () => streams.reduce((sum, stream) => sum + stream.length, 0)
    while (count() < expected && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      streams = (await Promise.all(threads.map((thread) => thread.arrivals()))).flat()
    }
    const latencies = Array.from({ length: rounds }, () => writers.map((): number[] => []))
    for (const stream of streams) {
      for (const [seq, at] of stream) {
        const [round, writer] = slot(seq)
        latencies[round]?.[writer]?.push(at - (sentAt[seq] as number))
      }
    }
    const results = latencies.map((round, r) =>
      round.map((list, w) => resultOf(clients, events, list, acks[r]?.[w] ?? [])),
    )
    for (const [r, round] of results.entries()) {
      for (const [w, result] of round.entries()) {
        const who = [rounds > 1 ? `round ${r + 1}` : '', writers.length > 1 ? `writer ${w + 1}` : '']
          .filter(Boolean)
          .join(', ')
        bench.log(
          `  ${who ? `${who}: ` : ''}delivered ${(result.share * 100).toFixed(2)}%, p50 ${result.p50.toFixed(1)} ms, ` +
            `p99 ${result.p99.toFixed(1)} ms (the write itself: p50 ${result.writeP50.toFixed(1)} ms)`,
        )
      }
    }
    return results
  } finally {
    await Promise.all(threads.map((thread) => thread.close()))
    // Let the server see the closes before the next leg measures anything.
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

/**
 * Leg 5 at one size: the streams and the writes on the one embedded server; with `mastodon`, leg 20, the
 * same over Mastodon's streaming API, each socket drawing each post as a status for its reader.
 */
export async function fanout(bench: Bench, clients: number, mastodon = false): Promise<FanoutResult> {
  const { sessions } = bench
  const [[result] = []] = await fanoutTo(
    bench,
    { reader: sessions.few, writers: [sessions.writer], mastodon },
    clients,
    mastodon ? `20. Mastodon WebSocket fan-out to ${clients} sockets` : `5. fan-out to ${clients} streams`,
  )
  if (!result) throw new Error('the fan-out leg measured nothing')
  return result
}
