import { authHeaders } from './api.js'
import { compare, type Bench } from './context.js'
import { load, pairedRatio } from './load.js'
import type { Running } from './processes.js'

/** Leg 1: Fastify's hello world against the two busiest reads, at the data set's size. */
export async function readsAgainstHello(bench: Bench, hello: Running) {
  const { chirp, sessions, settings } = bench
  const connections = settings.connections
  const comparison = await compare(bench, '1. reads vs hello world', {
    hello: (duration) => load({ url: `${hello.url}/`, connections, duration }),
    feed: (duration) =>
      load({ url: `${chirp.url}/api/feed?limit=20`, headers: authHeaders(sessions.typical), connections, duration }),
    posts: (duration) => load({ url: `${chirp.url}/api/posts?limit=20`, connections, duration }),
  })
  return {
    ...comparison,
    feedRatio: pairedRatio(comparison.runs.feed, comparison.runs.hello),
    postsRatio: pairedRatio(comparison.runs.posts, comparison.runs.hello),
  }
}

/** Leg 2: the home feed of someone following 1,000 accounts against someone following 10. */
export async function feedByFollowing(bench: Bench) {
  const { chirp, sessions, settings } = bench
  const connections = settings.connections
  const feed = (session: typeof sessions.many) => (duration: number) =>
    load({ url: `${chirp.url}/api/feed?limit=20`, headers: authHeaders(session), connections, duration })
  const comparison = await compare(bench, '2. feed, following 1,000 vs 10', {
    following1000: feed(sessions.many),
    following10: feed(sessions.few),
  })
  return { ...comparison, ratio: pairedRatio(comparison.runs.following1000, comparison.runs.following10) }
}
