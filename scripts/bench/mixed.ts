import { postText } from '../seed-large/words.js'
import { seededRandom } from '../seed-large/random.js'
import { authHeaders, send, writeHeaders } from './api.js'
import { compare, type Bench, type BenchBase } from './context.js'
import { load, median, pairedRatio, percentile, type LoadResult } from './load.js'
import type { LikeTarget } from './writes.js'

/** A light write load: likes and unlikes, and new posts, each so many a second. */
export interface WriteRates {
  likes: number
  posts: number
}

const LEG_4_RATES: WriteRates = { likes: 60, posts: 0 }

export interface WriterReport {
  sent: number
  ok: number
  failed: number
  p99: number
}

/**
 * One kind of write on the schedule: `perSecond` times a second, the requests of `requests(n)`, each sent
 * once the one before it was answered.
 */
interface WriteStream {
  perSecond: number
  requests: (n: number) => { path: string; body: string }[]
  started: number
}

/**
 * Writes by `target`'s session on its server at steady rates, on a schedule that does not wait for answers
 * (an open loop): likes of posts it has not liked, each unliked once its like is answered (sent on their
 * own schedule, a slow like's unlike could overtake it and be refused), and new posts of generated text.
 */
function startWriter(bench: BenchBase, target: LikeTarget, rates: WriteRates) {
  const streams: WriteStream[] = []
  if (rates.likes > 0) {
    const pairs = rates.likes / 2
    const posts = target.takePosts(Math.ceil(pairs * (bench.settings.duration + 2)))
    streams.push({
      perSecond: pairs,
      started: 0,
      requests: (n) => {
        const id = posts[n % posts.length] as string
        return [
          { path: `/api/posts/like/${id}`, body: '{}' },
          { path: `/api/posts/dislike/${id}`, body: '{}' },
        ]
      },
    })
  }
  if (rates.posts > 0) {
    const random = seededRandom(streams.length + 1)
    streams.push({
      perSecond: rates.posts,
      started: 0,
      requests: () => [{ path: '/api/posts', body: JSON.stringify({ postData: { content: postText(random) } }) }],
    })
  }
  const headers = writeHeaders(target.session)
  const latencies: number[] = []
  const inFlight = new Set<Promise<void>>()
  let failed = 0
  let sent = 0
  let stopped = false
  const started = performance.now()

  const write = async ({ path, body }: { path: string; body: string }): Promise<boolean> => {
    sent++
    const at = performance.now()
    try {
      const res = await send(target.session.base, 'POST', path, headers, body)
      if (res.status === 201) latencies.push(performance.now() - at)
      else failed++
      return res.status === 201
    } catch {
      failed++
      return false
    }
  }
  const fire = (stream: WriteStream) => {
    const requests = stream.requests(stream.started)
    stream.started++
    const chain = (async () => {
      for (const request of requests) if (!(await write(request))) return
    })().finally(() => inFlight.delete(chain))
    inFlight.add(chain)
  }
  const fastest = Math.max(...streams.map((stream) => stream.perSecond))
  const tick = () => {
    if (stopped) return
    // Catch up on the schedule rather than drift: the rates hold even when a timer fires late.
    const seconds = (performance.now() - started) / 1000
    for (const stream of streams) {
      const due = Math.floor(seconds * stream.perSecond)
      while (stream.started < due) fire(stream)
    }
    setTimeout(tick, 1000 / fastest / 2)
  }
  tick()

  return async (): Promise<WriterReport> => {
    stopped = true
    await Promise.all(inFlight)
    latencies.sort((a, b) => a - b)
    return { sent, ok: latencies.length, failed, p99: percentile(latencies, 0.99) }
  }
}

/**
 * A run of `read` while `rates` of writes land through `target`, for `compare`: the writes start before
 * the read and stop after it, and each measured run's writer report is added to `reports`.
 */
export function underWrites(
  bench: BenchBase,
  target: LikeTarget,
  rates: WriteRates,
  read: (duration: number) => Promise<LoadResult>,
  reports: WriterReport[],
): (duration: number, measured: boolean) => Promise<LoadResult> {
  return async (duration, measured) => {
    const stop = startWriter(bench, target, rates)
    try {
      return await read(duration)
    } finally {
      const report = await stop()
      if (measured) reports.push(report)
    }
  }
}

/** The writes a second that were answered with success, the median over the measured runs. */
export const writesAchieved = (bench: BenchBase, reports: readonly WriterReport[]) =>
  median(reports.map((report) => report.ok / bench.settings.duration))

/** Leg 4: the home feed read as hard as it goes, alone and while 60 likes and unlikes a second land. */
export async function readsUnderWrites(bench: Bench) {
  const { chirp, sessions, settings } = bench
  const read = (duration: number) =>
    load({
      url: `${chirp.url}/api/feed?limit=20`,
      headers: authHeaders(sessions.typical),
      connections: settings.connections,
      duration,
    })
  const writers: WriterReport[] = []
  const writer = { session: sessions.writer, takePosts: bench.takePosts }
  const comparison = await compare(bench, `4. feed reads, alone vs with ${LEG_4_RATES.likes} writes/s`, {
    alone: read,
    withWrites: underWrites(bench, writer, LEG_4_RATES, read, writers),
  })
  const writesPerSecond = writesAchieved(bench, writers)
  bench.log(
    `  writes: ${writesPerSecond.toFixed(1)}/s achieved, write p99 ${median(writers.map((w) => w.p99)).toFixed(1)} ms`,
  )
  return {
    ...comparison,
    writers,
    writesPerSecond,
    ratio: pairedRatio(comparison.runs.withWrites, comparison.runs.alone),
  }
}
