import { authHeaders, pageOf, type Session } from './api.js'
import { compare, type BenchBase } from './context.js'
import { fanoutTo, type FanoutResult } from './fanout.js'
import type { Report } from './legs.js'
import { load, median, pairedRatio, type LoadResult } from './load.js'
import { PG_STREAMS, type PgBench } from './pg.js'
import { pageSizeLeg } from './page-size.js'
import { pgAgainstEmbedded } from './pg-vs-embedded.js'
import type { Running } from './processes.js'
import { atLeast, atMost, measured, ms, percent, size, times } from './report.js'
import { repostsLeg } from './reposts.js'
import { likeUnlikeRun } from './writes.js'

const rps = (value: number) => value.toFixed(0)
const FEEDS = [
  { sort: 'latest', who: 'few', following: '10' },
  { sort: 'latest', who: 'many', following: '1,000' },
  { sort: 'trending', who: 'few', following: '10' },
  { sort: 'trending', who: 'many', following: '1,000' },
] as const

/** Leg 7: each home feed at the large schema's size against the same feed at the small one's. */
async function feedAtScale(bench: BenchBase, pg: PgBench) {
  const connections = bench.settings.connections
  const feeds = []
  for (const { sort, who, following } of FEEDS) {
    const path = `/api/feed?limit=20&sort=${sort}`
    const run = (session: Session) => (duration: number) =>
      load({ url: session.base + path, headers: authHeaders(session), connections, duration })
    const comparison = await compare(bench, `7. PostgreSQL feed (${sort}, following ${following}), large vs small`, {
      large: run(pg.large[who]),
      small: run(pg.small[who]),
    })
    const pages = { large: await pageOf(pg.large[who], path), small: await pageOf(pg.small[who], path) }
    feeds.push({
      sort,
      following,
      ...comparison,
      pages,
      ratio: pairedRatio(comparison.runs.large, comparison.runs.small),
    })
  }
  return feeds
}

/** The sum of runs made at the same time against several servers: requests add up, the worst latency counts. */
function together(results: readonly LoadResult[]): LoadResult {
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    ok: results.reduce((sum, r) => sum + r.ok, 0),
    failed: results.reduce((sum, r) => sum + r.failed, 0),
  }
}

/** Leg 9: like/unlike with all connections on one instance, and split over two instances on one schema. */
async function likesOnInstances(bench: BenchBase, pg: PgBench) {
  const half = Math.max(1, Math.floor(bench.settings.writeConnections / 2))
  const one = likeUnlikeRun(bench, { session: pg.small.writer, takePosts: pg.takePosts })
  const first = likeUnlikeRun(bench, { session: pg.small.writer, takePosts: pg.takePosts }, half)
  const second = likeUnlikeRun(bench, { session: pg.second.writer, takePosts: pg.takePosts }, half)
  const comparison = await compare(bench, '9. like/unlike on PostgreSQL, one instance vs two', {
    one,
    two: async (duration) => together(await Promise.all([first(duration), second(duration)])),
  })
  return { ...comparison, twoOverOne: pairedRatio(comparison.runs.two, comparison.runs.one) }
}

/**
 * Leg 8: streams on instance A; posts written through A and through B in turns, in rounds. The p99s are
 * compared round by round, and the median difference kept, as the other legs keep medians of rounds.
 */
async function deliveryAcrossInstances(bench: BenchBase, pg: PgBench) {
  const target = {
    reader: pg.small.few,
    writers: [pg.small.writer, pg.second.writer],
    ticketsAhead: 16,
    rounds: bench.settings.rounds,
  }
  const rounds = await fanoutTo(bench, target, PG_STREAMS, `8. delivery to ${PG_STREAMS} streams on instance A`)
  const side = (i: 0 | 1) => rounds.map((round) => round[i] as FanoutResult)
  const share = (results: FanoutResult[]) =>
    results.reduce((sum, r) => sum + r.delivered, 0) / results.reduce((sum, r) => sum + r.clients * r.events, 0)
  return {
    rounds,
    sameShare: share(side(0)),
    crossShare: share(side(1)),
    sameP50: median(side(0).map((r) => r.p50)),
    crossP50: median(side(1).map((r) => r.p50)),
    extraP99: median(rounds.map(([same, cross]) => (cross?.p99 ?? Number.NaN) - (same?.p99 ?? Number.NaN))),
  }
}

/**
 * Legs 7 to 9 and 14 to 16, those asked for. Leg 9 compares with leg 3's shared flush, measured earlier in the
 * same run (`sharedFlush`, its median writes a second); leg 15 starts an embedded server into `running`.
 */
export async function runPgLegs(
  bench: BenchBase,
  pg: PgBench,
  sharedFlush: number | undefined,
  running: Running[],
  report: Report,
) {
  const { checks, details, results } = report
  const { only } = bench.settings
  // First, before leg 15's writer adds posts nobody has liked yet to the newest page.
  if (only.has(16)) await pageSizeLeg(pg.large, `PostgreSQL, ${size(bench.settings.pgPosts)} posts`, report)
  if (only.has(7)) {
    const feeds = await feedAtScale(bench, pg)
    results.feedAtScale = feeds
    const sizes = `${size(bench.settings.pgPosts)} ÷ ${size(bench.settings.posts)} posts`
    for (const feed of feeds) {
      checks.push(atLeast(7, `feed ${feed.sort}, following ${feed.following}: ${sizes}`, feed.ratio, 0.7))
      const { large, small } = feed.medians
      details.push(
        `Leg 7, ${feed.sort}, following ${feed.following} (req/s, medians): large ${rps(large.rps)} (p99 ${ms(large.p99)}, ` +
          `${feed.pages.large.items} posts, ${(feed.pages.large.bytes / 1024).toFixed(0)} KB a page), small ${rps(small.rps)} ` +
          `(p99 ${ms(small.p99)}, ${feed.pages.small.items} posts, ${(feed.pages.small.bytes / 1024).toFixed(0)} KB a page).`,
      )
    }
  }
  if (only.has(15)) await pgAgainstEmbedded(bench, pg, running, report)
  if (only.has(14)) await repostsLeg(bench, pg.small.few, 14, report)
  if (only.has(8)) {
    const delivery = await deliveryAcrossInstances(bench, pg)
    results.crossInstance = delivery
    checks.push(atLeast(8, 'events delivered, writes through A', delivery.sameShare, 1, percent(delivery.sameShare)))
    checks.push(atLeast(8, 'events delivered, writes through B', delivery.crossShare, 1, percent(delivery.crossShare)))
    checks.push(
      atMost(8, 'delivery p99, writes through B − through A', delivery.extraP99, 25, ms(delivery.extraP99), '25 ms'),
    )
    const p99s = (side: 0 | 1) => delivery.rounds.map((round) => ms(round[side]?.p99 ?? Number.NaN)).join(', ')
    details.push(
      `Leg 8, ${PG_STREAMS} streams on A, p99 a round: writes through A ${p99s(0)}; through B ${p99s(1)}. ` +
        `Medians of p50: through A ${ms(delivery.sameP50)}, through B ${ms(delivery.crossP50)}.`,
    )
  }
  if (only.has(9)) {
    const likes = await likesOnInstances(bench, pg)
    results.likesOnInstances = { ...likes, sharedFlush }
    const { one, two } = likes.medians
    const embedded = sharedFlush ?? Number.NaN
    checks.push(atLeast(9, 'like/unlike, 1 instance ÷ embedded shared flush (leg 3)', one.rps / embedded, 0.5))
    checks.push(measured(9, 'like/unlike, 2 instances ÷ embedded shared flush (leg 3)', two.rps / embedded))
    checks.push(measured(9, 'like/unlike, 2 instances ÷ 1', likes.twoOverOne, times(likes.twoOverOne)))
    details.push(
      `Leg 9 (writes/s, medians, every answer after its commit): one instance ${rps(one.rps)} (p99 ${ms(one.p99)}), ` +
        `two ${rps(two.rps)} (p99 ${ms(two.p99)}), embedded shared flush (leg 3) ${rps(embedded)}; ` +
        `write failures ${median(likes.runs.one.map((r) => r.failed))} and ${median(likes.runs.two.map((r) => r.failed))} a run (medians).`,
    )
  }
}
