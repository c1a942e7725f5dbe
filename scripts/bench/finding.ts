import { BENCH_PASSWORD } from '../seed-large/people.js'
import { authHeaders, login, pageOf, type Session } from './api.js'
import { compare, type BenchBase } from './context.js'
import type { Report } from './legs.js'
import { pairedRatio, load } from './load.js'
import { atLeast, ms } from './report.js'

/** Who reads: the generated data set's popular account, the one with pages of notifications. */
const NOTIFIED_USER = 'bench_popular'
/** What each of legs 11 and 12 adds to the run's deadline: four reads warmed up, then their rounds. */
export const FINDING_MS = 120_000
/** A word of the generated posts' vocabulary that about a fifth of them hold, and the start of Rosa and Rossi. */
const POST_WORD = 'coffee'
const NAME_PREFIX = 'ros'
const READS = {
  feed: { path: '/api/feed?limit=20', shown: 'home feed' },
  posts: { path: `/api/search?q=${POST_WORD}`, shown: `search posts for "${POST_WORD}"` },
  people: { path: `/api/search?q=${NAME_PREFIX}&type=users`, shown: `search people for "${NAME_PREFIX}"` },
  notifications: { path: '/api/notifications', shown: 'notifications' },
} as const
type Read = keyof typeof READS
const GOAL = 0.5

/**
 * Legs 11 and 12: a post search for a common word, a people search by a name's first letters and the
 * notifications page of an account that has thousands, each against the home feed of that account, on
 * one server, the same connections, in interleaved rounds.
 */
async function findingAgainstFeed(bench: BenchBase, session: Session, title: string) {
  const connections = bench.settings.connections
  const reads = Object.keys(READS) as Read[]
  const comparison = await compare(
    bench,
    title,
    Object.fromEntries(
      reads.map((read) => [
        read,
        (duration: number) =>
          load({ url: session.base + READS[read].path, headers: authHeaders(session), connections, duration }),
      ]),
    ) as Record<Read, (duration: number) => ReturnType<typeof load>>,
  )
  const pages = {} as Record<Read, { bytes: number; items: number }>
  for (const read of reads) pages[read] = await pageOf(session, READS[read].path)
  const ratios = {
    posts: pairedRatio(comparison.runs.posts, comparison.runs.feed),
    people: pairedRatio(comparison.runs.people, comparison.runs.feed),
    notifications: pairedRatio(comparison.runs.notifications, comparison.runs.feed),
  }
  return { user: NOTIFIED_USER, ...comparison, pages, ratios }
}

/** Runs leg `leg` against the server at `base` and adds its rows, its details and its runs to `report`. */
export async function findingLeg(
  bench: BenchBase,
  leg: number,
  base: string,
  where: string,
  { checks, details, results }: Report,
): Promise<void> {
  const session = await login(base, NOTIFIED_USER, BENCH_PASSWORD)
  const finding = await findingAgainstFeed(bench, session, `${leg}. search and notifications vs the feed, ${where}`)
  results.finding = finding
  for (const read of ['posts', 'people', 'notifications'] as const) {
    checks.push(atLeast(leg, `${READS[read].shown} ÷ ${READS.feed.shown}, ${where}`, finding.ratios[read], GOAL))
  }
  const shown = (read: Read) => {
    const { rps, p99 } = finding.medians[read]
    const page = finding.pages[read]
    return `${READS[read].shown} ${rps.toFixed(0)} (p99 ${ms(p99)}, ${page.items} items, ${(page.bytes / 1024).toFixed(1)} KB)`
  }
  details.push(
    `Leg ${leg}, as ${NOTIFIED_USER} (req/s, medians): ${(Object.keys(READS) as Read[]).map(shown).join('; ')}.`,
  )
}
