import { authHeaders, send, writeHeaders } from './api.js'
import { compare, type Bench } from './context.js'
import { load, median, pairedRatio, percentile } from './load.js'

const WRITES_PER_SECOND = 60

interface WriterReport {
  sent: number
  ok: number
  failed: number
  p99: number
}

/** Likes and unlikes at a steady rate, on a schedule that does not wait for answers (an open loop). */
function startWriter(bench: Bench, perSecond: number) {
  const posts = bench.takePosts(Math.ceil((perSecond * (bench.settings.duration + 2)) / 2))
  const headers = writeHeaders(bench.sessions.writer)
  const latencies: number[] = []
  const inFlight = new Set<Promise<void>>()
  let sent = 0
  let failed = 0
  let stopped = false
  const started = performance.now()

  const fire = () => {
    const id = posts[(sent >> 1) % posts.length] as string
    const path = sent % 2 === 0 ? `/api/posts/like/${id}` : `/api/posts/dislike/${id}`
    sent++
    const at = performance.now()
    const request = send(bench.chirp.url, 'POST', path, headers, '{}')
      .then((res) => {
        if (res.status === 201) latencies.push(performance.now() - at)
        else failed++
      })
      .catch(() => {
        failed++
      })
      .finally(() => inFlight.delete(request))
    inFlight.add(request)
  }
  const tick = () => {
    if (stopped) return
    // Catch up on the schedule rather than drift: the rate holds even when a timer fires late.
    const due = Math.floor(((performance.now() - started) / 1000) * perSecond)
    while (sent < due) fire()
    setTimeout(tick, 1000 / perSecond / 2)
  }
  tick()

  return async (): Promise<WriterReport> => {
    stopped = true
    await Promise.all(inFlight)
    latencies.sort((a, b) => a - b)
    return { sent, ok: latencies.length, failed, p99: percentile(latencies, 0.99) }
  }
}

/** Leg 4: the home feed read as hard as it goes, alone and while 60 writes a second land. */
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
  const comparison = await compare(bench, `4. feed reads, alone vs with ${WRITES_PER_SECOND} writes/s`, {
    alone: read,
    withWrites: async (duration, measured) => {
      const stop = startWriter(bench, WRITES_PER_SECOND)
      try {
        return await read(duration)
      } finally {
        const report = await stop()
        if (measured) writers.push(report)
      }
    },
  })
  const writesPerSecond = median(writers.map((w) => w.ok / settings.duration))
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
