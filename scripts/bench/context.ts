import type { Session } from './api.js'
import type { Scratch } from './dataset.js'
import { interleave, median, type LoadResult } from './load.js'
import type { Running } from './processes.js'

export interface Settings {
  /** Seconds of each measured autocannon run. */
  duration: number
  /** Seconds of the unmeasured run that warms each target's JIT first. */
  warmup: number
  /** Interleaved rounds; every ratio is the median over them. */
  rounds: number
  /** Connections of every read run. */
  connections: number
  /** Connections of the write runs, the same in both flush modes. */
  writeConnections: number
  users: number
  posts: number
  /** Event-stream clients of the fan-out leg. */
  fanout: number[]
  fanoutEvents: number
  /**
   * Which legs run (1 to 19); 1 to 6, 10, 11, 13, 16 to 19 by default, and 7 to 9, 12, 14 and 15 too (and
   * legs 16, 18 and 19 on PostgreSQL) when DATABASE_URL is set.
   */
  only: ReadonlySet<number>
  /** Where the PostgreSQL legs (7 to 9, 12, 14, 15 and 16's PostgreSQL rows) make their schemas: a database on 127.0.0.1. */
  databaseUrl: string | undefined
  /** Users of both PostgreSQL schemas, and posts of the large one; the small one has `posts`. */
  pgUsers: number
  pgPosts: number
}

/** What every leg needs, whichever store it measures. */
export interface BenchBase {
  settings: Settings
  jwtSecret: string
  openFiles: number
  scratch: Scratch
  log: (line: string) => void
}

/** The embedded store's legs (1 to 5): its server, logged-in sessions and data set. */
export interface Bench extends BenchBase {
  chirp: Running
  sessions: Record<'typical' | 'many' | 'few' | 'writer' | 'popular', Session>
  /** Posts the writer has not liked, handed out in disjoint slices so every write run starts clean. */
  takePosts: (count: number) => string[]
  /** Extra servers are started from copies of this data set. */
  dataSetDir: string
}

/** What a comparison leaves in results.json: every run, and the medians over rounds. */
export interface Comparison<K extends string> {
  runs: Record<K, LoadResult[]>
  medians: Record<K, { rps: number; p50: number; p99: number }>
}

/**
 * Hands out `ids` in disjoint slices, in an order spread over the whole data set rather than the newest
 * posts first, so writes land everywhere and every write run starts on posts nobody has touched.
 */
export function postTaker(ids: readonly string[]): (count: number) => string[] {
  const spread = ids.map((id, i) => ({ id, key: (i * 2654435761) % 4294967296 })).sort((a, b) => a.key - b.key)
  let taken = 0
  return (count) => {
    if (taken + count > spread.length) throw new Error('the data set ran out of posts to like; seed more posts')
    taken += count
    return spread.slice(taken - count, taken).map((entry) => entry.id)
  }
}

export async function compare<K extends string>(
  bench: BenchBase,
  title: string,
  /** Each leg runs for `seconds`; `measured` is false for its warm-up run. */
  legs: Record<K, (seconds: number, measured: boolean) => Promise<LoadResult>>,
): Promise<Comparison<K>> {
  const names = Object.keys(legs) as K[]
  bench.log(`${title}: warming up`)
  for (const name of names) await legs[name](bench.settings.warmup, false)
  const timed = Object.fromEntries(
    names.map((name) => [name, () => legs[name](bench.settings.duration, true)]),
  ) as Record<K, () => Promise<LoadResult>>
  bench.log(`${title}: ${bench.settings.rounds} rounds of ${names.join(', ')}`)
  const runs = await interleave(bench.settings.rounds, timed)
  const medians = Object.fromEntries(
    names.map((name) => {
      const results = runs[name]
      const summary = {
        rps: median(results.map((r) => r.rps)),
        p50: median(results.map((r) => r.p50)),
        p99: median(results.map((r) => r.p99)),
      }
      bench.log(
        `  ${name}: ${summary.rps.toFixed(0)} req/s, p99 ${summary.p99} ms, ${results.reduce((n, r) => n + r.failed, 0)} failed`,
      )
      return [name, summary]
    }),
  ) as Comparison<K>['medians']
  return { runs, medians }
}
