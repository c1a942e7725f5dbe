import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { call } from './api.js'
import type { Bench } from './context.js'
import { percentile } from './load.js'

const EVENT_SPACING_MS = 300
const DRAIN_MS = 5000
/** Threads that hold the streams: every core but the one the server needs while it fans an event out. */
const THREADS = Math.max(1, availableParallelism() - 1)

type Reply = { open?: number; error?: string; arrivals?: [number, number][][] }

/** A worker thread holding some of the streams (fanout-worker.ts). */
async function startThread(host: string, port: number, tickets: string[], marker: string) {
  // A worker does not inherit the TypeScript loader that --import tsx gave this thread: it registers its own.
  const entry = JSON.stringify(new URL('./fanout-worker.ts', import.meta.url).href)
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}) })`
  const worker = new Worker(bootstrap, { eval: true, workerData: { host, port, tickets, marker } })
  const next = async (): Promise<Reply> => {
    const [reply] = (await once(worker, 'message')) as [Reply]
    if (reply.error) throw new Error(reply.error)
    return reply
  }
  await next()
  return {
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

/**
 * Leg 5 at one size: `clients` streams, each from its own ticket, then posts written one by one; every
 * stream should see every post. Latency runs from just before the write is sent to the moment a stream's
 * bytes carrying it arrive, so it includes the write's own flush to disk.
 */
export async function fanout(bench: Bench, clients: number): Promise<FanoutResult> {
  const { chirp, sessions, settings } = bench
  const runId = randomBytes(4).toString('hex')
  const marker = `fanout-${runId}-`
  bench.log(`5. fan-out to ${clients} streams: connecting`)
  const tickets: string[] = []
  await pool(Array.from({ length: clients }), 16, async () => {
    const reply = await call<{ ticket: string }>(chirp.url, 'POST', '/api/events/ticket', { token: sessions.few.token })
    tickets.push(reply.ticket)
  })
  const { hostname, port } = new URL(chirp.url)
  const share = Math.ceil(clients / THREADS)
  const threads = await Promise.all(
    Array.from({ length: THREADS }, (_, i) => startThread(hostname, Number(port), tickets.slice(i * share, (i + 1) * share), marker)),
  )
  try {
    bench.log(`  ${clients} streams open; writing ${settings.fanoutEvents} posts, one every ${EVENT_SPACING_MS} ms`)
    const sentAt: number[] = []
    const acks: number[] = []
    const now = () => performance.timeOrigin + performance.now()
    for (let seq = 0; seq < settings.fanoutEvents; seq++) {
      sentAt[seq] = now()
      await call(chirp.url, 'POST', '/api/posts', {
        token: sessions.writer.token,
        body: { content: `${marker}${seq} live fan-out check` },
        expect: 201,
      })
      acks.push(now() - (sentAt[seq] as number))
      await new Promise((resolve) => setTimeout(resolve, EVENT_SPACING_MS))
    }
    acks.sort((a, b) => a - b)
    const expected = clients * settings.fanoutEvents
    const deadline = performance.now() + DRAIN_MS
    let streams = (await Promise.all(threads.map((thread) => thread.arrivals()))).flat()
    const count = () => streams.reduce((sum, stream) => sum + stream.length, 0)
    while (count() < expected && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      streams = (await Promise.all(threads.map((thread) => thread.arrivals()))).flat()
    }
    const latencies: number[] = []
    for (const stream of streams) for (const [seq, at] of stream) latencies.push(at - (sentAt[seq] as number))
    latencies.sort((a, b) => a - b)
    const result = {
      clients,
      events: settings.fanoutEvents,
      delivered: latencies.length,
      share: latencies.length / expected,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? Number.NaN,
      /** The writes' own round trips: the flush to disk, then the fan-out, then the answer. */
      writeP50: percentile(acks, 0.5),
    }
    bench.log(
      `  delivered ${(result.share * 100).toFixed(2)}%, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms` +
        ` (the write itself: p50 ${result.writeP50.toFixed(1)} ms)`,
    )
    return result
  } finally {
    await Promise.all(threads.map((thread) => thread.close()))
    // Let the server see the closes before the next leg measures anything.
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
