import autocannon, { type Options } from 'autocannon'

/** What one autocannon run tells: successful requests a second and the latency of all of them. */
export interface LoadResult {
  rps: number
  p50: number
  p99: number
  ok: number
  failed: number
}

export interface LoadOptions {
  url: string
  connections: number
  /** Seconds. */
  duration: number
  method?: Options['method']
  headers?: Record<string, string>
  body?: string
  /** Gives each connection its own requests, e.g. its own posts to like. */
  setupClient?: Options['setupClient']
}

/** One autocannon run. Only 2xx answers count as throughput, so a leg that starts failing cannot look fast. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ timeout: 10, ...options })
  const ok = result['2xx']
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    failed: result.non2xx + result.errors,
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** The value below which `share` of the samples fall (nearest rank). */
export function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))
  return sorted[rank] as number
}

/**
 * Runs the legs of one comparison in turn, `rounds` times, rotating which goes first so that drift
 * (a warming JIT, a busy neighbour) falls on every leg alike. Returns every leg's results in run order.
 */
export async function interleave<K extends string>(
  rounds: number,
  legs: Record<K, () => Promise<LoadResult>>,
): Promise<Record<K, LoadResult[]>> {
  const names = Object.keys(legs) as K[]
  const results = Object.fromEntries(names.map((name) => [name, [] as LoadResult[]])) as Record<K, LoadResult[]>
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as K
      results[name].push(await legs[name]())
    }
  }
  return results
}

/**
 * The median, over rounds, of the ratio of two legs run side by side in the same round. A leg that
 * completed nothing in a round makes the ratio unmeasurable (NaN), not infinite.
 */
export function pairedRatio(top: readonly LoadResult[], bottom: readonly LoadResult[]): number {
  const ratios = top.map((result, i) => {
    const under = bottom[i]?.rps ?? 0
    return under > 0 ? result.rps / under : Number.NaN
  })
  return ratios.some(Number.isNaN) ? Number.NaN : median(ratios)
}
