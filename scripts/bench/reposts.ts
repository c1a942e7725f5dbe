import { randomBytes } from 'node:crypto'
import { authHeaders, call, type Session } from './api.js'
import { compare, type BenchBase } from './context.js'
import type { Report } from './legs.js'
import { load, pairedRatio } from './load.js'
import { atLeast, kb, ms } from './report.js'

/** How many posts the reader with reposts reposts: half a page, so its first page mixes both kinds. */
const REPOSTS = 10
const PATH = '/api/feed?limit=20'

interface UserReply {
  user: { _id: string; following: { _id: string }[] }
}

/**
 * A new account that follows whom `username` follows and reposts REPOSTS posts of people neither
 * follows: the same home feed as theirs, with reposts on top of it.
 */
async function readerWithReposts(base: string, username: string): Promise<Session> {
  const name = `bench_rp_${randomBytes(4).toString('hex')}`
  const signup = await call<{ encodedToken: string }>(base, 'POST', '/api/auth/signup', {
    body: { username: name, password: randomBytes(12).toString('hex'), email: `${name}@example.com` },
  })
  const session = { base, token: signup.encodedToken }
  const { user } = await call<UserReply>(base, 'GET', `/api/users/${username}`, { token: session.token })
  const followed = new Set(user.following.map((u) => u._id))
  for (const id of followed) await call(base, 'POST', `/api/users/follow/${id}`, { token: session.token })
  const { posts } = await call<{ posts: { _id: string; username: string }[] }>(base, 'GET', '/api/posts?limit=100')
  const { users } = await call<{ users: { _id: string; username: string }[] }>(base, 'GET', '/api/users?limit=100')
  const idOf = new Map(users.map((u) => [u.username, u._id]))
  const others = posts.filter((post) => !followed.has(idOf.get(post.username) ?? post.username))
  for (const post of others.slice(0, REPOSTS))
    await call(base, 'POST', `/api/posts/repost/${post._id}`, { token: session.token })
  return session
}

/**
 * Leg 13 (embedded) and 14 (PostgreSQL): a home feed with reposts against the same feed without, in
 * interleaved rounds. `reader` is the account whose follows both share (bench_few, following 10).
 */
async function feedWithReposts(bench: BenchBase, reader: Session, username: string, leg: number) {
  const connections = bench.settings.connections
  const withReposts = await readerWithReposts(reader.base, username)
  const run = (session: Session) => (duration: number) =>
    load({ url: session.base + PATH, headers: authHeaders(session), connections, duration })
  const comparison = await compare(bench, `${leg}. home feed with reposts vs without`, {
    withReposts: run(withReposts),
    without: run(reader),
  })
  const bytes = async (session: Session) =>
    (await fetch(session.base + PATH, { headers: authHeaders(session) }).then((res) => res.text())).length
  const pages = { withReposts: await bytes(withReposts), without: await bytes(reader) }
  return {
    ...comparison,
    reposts: REPOSTS,
    pages,
    ratio: pairedRatio(comparison.runs.withReposts, comparison.runs.without),
  }
}

/** Runs leg 13 or 14 against `reader`'s server and adds its goal and figures to the report. */
export async function repostsLeg(
  bench: BenchBase,
  reader: Session,
  leg: 13 | 14,
  { checks, details, results }: Report,
): Promise<void> {
  const reposts = await feedWithReposts(bench, reader, 'bench_few', leg)
  results.feedWithReposts = reposts
  checks.push(atLeast(leg, 'feed with reposts ÷ without (following 10)', reposts.ratio, 0.8))
  const { withReposts, without } = reposts.medians
  details.push(
    `Leg ${leg} (req/s, medians): with ${reposts.reposts} reposts ${withReposts.rps.toFixed(0)} (p99 ${ms(withReposts.p99)}, ` +
      `${kb(reposts.pages.withReposts)} a page), without ${without.rps.toFixed(0)} (p99 ${ms(without.p99)}, ${kb(reposts.pages.without)}).`,
  )
}
