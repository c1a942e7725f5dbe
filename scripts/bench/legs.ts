import type { Bench } from './context.js'
import { fanout } from './fanout.js'
import { readsUnderWrites } from './mixed.js'
import type { Running } from './processes.js'
import { feedByFollowing, readsAgainstSameBytes } from './reads.js'
import { repostsLeg } from './reposts.js'
import { atLeast, atMost, kb, measured, ms, percent, type Check } from './report.js'
import { writesSharedVsPerWrite } from './writes.js'

/** What the run has found so far: the goal table, a line of detail a leg, and everything for results.json. */
export interface Report {
  checks: Check[]
  details: string[]
  results: Record<string, unknown>
}

const rps = (value: number) => value.toFixed(0)

/** Legs 1 to 5, 13 and 20, those asked for, in order, against the running servers. */
export async function runServerLegs(bench: Bench, hello: Running, { checks, details, results }: Report): Promise<void> {
  const { only } = bench.settings
  if (only.has(1)) {
    const reads = await readsAgainstSameBytes(bench, hello)
    results.reads = reads
    checks.push(atLeast(1, 'GET /api/feed?limit=20 ÷ the same bytes, bare route', reads.feedRatio, 0.8))
    checks.push(atLeast(1, 'GET /api/posts?limit=20 ÷ the same bytes, bare route', reads.postsRatio, 0.8))
    checks.push(measured(1, 'GET /api/feed?limit=20 ÷ hello world (context)', reads.feedToHello))
    checks.push(measured(1, 'GET /api/posts?limit=20 ÷ hello world (context)', reads.postsToHello))
    const { hello: h, feed, feedBare, posts, postsBare } = reads.medians
    details.push(
      `Leg 1 (req/s, medians): feed ${rps(feed.rps)} against its bytes (${kb(reads.bytes.feed)}) from a bare route ${rps(feedBare.rps)}; ` +
        `posts ${rps(posts.rps)} against ${rps(postsBare.rps)} (${kb(reads.bytes.posts)}); hello world ${rps(h.rps)}.`,
    )
  }
  if (only.has(2)) {
    const feeds = await feedByFollowing(bench)
    results.feedByFollowing = feeds
    checks.push(atLeast(2, 'feed following 1,000 ÷ following 10', feeds.ratio, 0.8))
    const { following1000, following10 } = feeds.medians
    details.push(
      `Leg 2 (req/s, medians): following 1,000 ${rps(following1000.rps)}, following 10 ${rps(following10.rps)}.`,
    )
  }
  if (only.has(3)) {
    const writes = await writesSharedVsPerWrite(bench)
    results.writes = writes
    checks.push(atLeast(3, 'like/unlike, shared flush ÷ flush per write', writes.ratio, 8))
    checks.push(atMost(3, 'like/unlike p99, shared flush', writes.sharedP99, 150, ms(writes.sharedP99), '150 ms'))
    const { shared, perWrite } = writes.medians
    details.push(
      `Leg 3 (writes/s, medians, every answer after its fsync): shared ${rps(shared.rps)} (p99 ${ms(shared.p99)}), ` +
        `a flush per write ${rps(perWrite.rps)} (p99 ${ms(perWrite.p99)}).`,
    )
  }
  if (only.has(4)) {
    const mixed = await readsUnderWrites(bench)
    results.readsUnderWrites = mixed
    checks.push(atLeast(4, 'feed reads with 60 writes/s ÷ alone', mixed.ratio, 0.7))
    const { alone, withWrites } = mixed.medians
    details.push(
      `Leg 4 (req/s, medians): alone ${rps(alone.rps)}, with writes ${rps(withWrites.rps)}; ` +
        `writes achieved ${mixed.writesPerSecond.toFixed(1)}/s.`,
    )
  }
  if (only.has(13)) await repostsLeg(bench, bench.sessions.few, 13, { checks, details, results })
  if (only.has(5)) {
    const sizes = []
    for (const clients of bench.settings.fanout) sizes.push(await fanout(bench, clients))
    results.fanout = sizes
    for (const size of sizes) {
      checks.push(atLeast(5, `events delivered, ${size.clients} streams`, size.share, 1, percent(size.share)))
      checks.push(atMost(5, `write → delivery p99, ${size.clients} streams`, size.p99, 250, ms(size.p99), '250 ms'))
      details.push(
        `Leg 5, ${size.clients} streams: ${size.delivered} of ${size.clients * size.events} deliveries, ` +
          `p50 ${ms(size.p50)}, p99 ${ms(size.p99)}, max ${ms(size.max)}; the write's own round trip p50 ${ms(size.writeP50)}.`,
      )
    }
  }
  if (only.has(20)) {
    const sizes = []
    for (const clients of bench.settings.fanout) sizes.push(await fanout(bench, clients, true))
    results.mastodonFanout = sizes
    for (const size of sizes) {
      checks.push(
        atLeast(20, `updates delivered, ${size.clients} Mastodon sockets`, size.share, 1, percent(size.share)),
      )
      checks.push(measured(20, `write → update p99, ${size.clients} Mastodon sockets`, size.p99, ms(size.p99)))
      details.push(
        `Leg 20, ${size.clients} Mastodon sockets (public stream): ${size.delivered} of ${size.clients * size.events} updates, ` +
          `p50 ${ms(size.p50)}, p99 ${ms(size.p99)}, max ${ms(size.max)}; the write's own round trip p50 ${ms(size.writeP50)}.`,
      )
    }
  }
}
