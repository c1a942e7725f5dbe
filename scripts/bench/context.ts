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
  /** Which legs run (1 to 6); all by default. */
  only: ReadonlySet<number>
}

export interface Bench {
  settings: Settings
  chirp: Running
  sessions: Record<'typical' | 'many' | 'few' | 'writer', Session>
  /** Posts the writer has not liked, handed out in disjoint slices so every write run starts clean. */
  takePosts(count: number): string[]
  /** Extra servers are started from copies of this data set. */
  dataSetDir: string
  jwtSecret: string
  openFiles: number
  scratch: Scratch
  log(line: string): void
}

/** What a comparison leaves in results.json: every run, and the medians over rounds. */
export interface Comparison<K extends string> {
  runs: Record<K, LoadResult[]>
  medians: Record<K, { rps: number; p50: number; p99: number }>
}

export async function compare<K extends string>(
  bench: Bench,
  title: string,
  /** Each leg runs for `seconds`; `measured` is false for its warm-up run. */
  legs: Record<K, (seconds: number, measured: boolean) => Promise<LoadResult>>,
): Promise<Comparison<K>> {
  const names = Object.keys(legs) as K[]
  bench.log(`${title}: warming up`)
  for (const name of names) await legs[name](bench.settings.warmup, false)
  const timed = Object.fromEntries(names.map((name) => [name, () => legs[name](bench.settings.duration, true)])) as Record<
    K,
    () => Promise<LoadResult>
  >
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
      bench.log(`  ${name}: ${summary.rps.toFixed(0)} req/s, p99 ${summary.p99} ms, ${results.reduce((n, r) => n + r.failed, 0)} failed`)
      return [name, summary]
    }),
  ) as Comparison<K>['medians']
  return { runs, medians }
}
