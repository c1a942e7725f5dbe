import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { authHeaders, sendRaw } from './api.js'
import { compare, type Bench } from './context.js'
import { load, pairedRatio } from './load.js'
import { startSameBytes, type FixedRoute, type Running } from './processes.js'

/** Leg 1's reads: each is measured against a bare route sending the very bytes it answered. */
const READS = {
  feed: { path: '/api/feed?limit=20', signedIn: true },
  posts: { path: '/api/posts?limit=20', signedIn: false },
} as const
type ReadName = keyof typeof READS

/** Each read's answer, fetched once as autocannon asks for it (no compression) and kept in a file of its own. */
async function fixedRoutes(bench: Bench): Promise<Record<ReadName, FixedRoute & { size: number }>> {
  const dir = await bench.scratch.dir('same-bytes')
  const routes: Partial<Record<ReadName, FixedRoute & { size: number }>> = {}
  for (const [name, read] of Object.entries(READS) as [ReadName, (typeof READS)[ReadName]][]) {
    const headers = read.signedIn ? authHeaders(bench.sessions.typical) : {}
    const answer = await sendRaw(bench.chirp.url, 'GET', read.path, headers)
    if (answer.status !== 200) throw new Error(`GET ${read.path}: ${answer.status}`)
    const file = path.join(dir, `${name}.body`)
    await writeFile(file, answer.bytes)
    routes[name] = { path: `/${name}`, contentType: answer.contentType, file, size: answer.bytes.length }
  }
  return routes as Record<ReadName, FixedRoute & { size: number }>
}

/**
 * Leg 1: the two busiest reads, at the data set's size, each against a bare Fastify route in its own
 * process sending the same bytes with the same content type: the physical limit of that answer over
 * this transport. Fastify's hello world runs in the same rounds as context.
 */
export async function readsAgainstSameBytes(bench: Bench, hello: Running) {
  const { chirp, sessions, settings } = bench
  const connections = settings.connections
  const routes = await fixedRoutes(bench)
  const bare = await startSameBytes(Object.values(routes))
  try {
    const chirpRead = (name: ReadName) => (duration: number) => {
      const read = READS[name]
      const headers = read.signedIn ? authHeaders(sessions.typical) : undefined
      return load({ url: `${chirp.url}${read.path}`, ...(headers ? { headers } : {}), connections, duration })
    }
    const bareRead = (name: ReadName) => (duration: number) =>
      load({ url: `${bare.url}/${name}`, connections, duration })
    const comparison = await compare(bench, '1. reads vs the same bytes from a bare route', {
      hello: (duration) => load({ url: `${hello.url}/`, connections, duration }),
      feed: chirpRead('feed'),
      feedBare: bareRead('feed'),
      posts: chirpRead('posts'),
      postsBare: bareRead('posts'),
    })
    const { runs } = comparison
    return {
      ...comparison,
      bytes: { feed: routes.feed.size, posts: routes.posts.size },
      feedRatio: pairedRatio(runs.feed, runs.feedBare),
      postsRatio: pairedRatio(runs.posts, runs.postsBare),
      feedToHello: pairedRatio(runs.feed, runs.hello),
      postsToHello: pairedRatio(runs.posts, runs.hello),
    }
  } finally {
    await bare.stop()
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
