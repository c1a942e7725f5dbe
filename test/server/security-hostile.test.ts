import t from 'tap'
import { bodyCases, type Targets } from '../helpers/hostile-bodies.js'
import { requestCases } from '../helpers/hostile-requests.js'
import { buildSeededApp, listMedia, snapshotDb } from '../helpers/seeded.js'

/**
 * Hostile input on every route: each named case must get a 4xx in the `{ errors }` shape, none a 5xx,
 * and the database files must be byte for byte what they were before the first case.
 */
const api = await buildSeededApp(t, { config: { rateLimit: false } })
const token = await api.login('guest')

interface SeedPost {
  _id: string
  username: string
  likes: { likedBy: Array<{ username: string }> }
  comments: Array<{ _id: string; username: string }>
}
const { posts } = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: SeedPost[] }
const { user: guest } = (await api.as(token, { method: 'GET', url: '/api/users/guest' })).json() as {
  user: { _id: string; following: Array<{ _id: string }> }
}
const { users } = (await api.app.inject({ method: 'GET', url: '/api/users' })).json() as { users: Array<{ _id: string }> }

function pick<T>(items: T[], test: (item: T) => boolean, what: string): T {
  const found = items.find(test)
  if (found === undefined) throw new Error(`the seed has no ${what}`)
  return found
}
const ownPost = pick(posts, (p) => p.username === 'guest' && p.comments.some((c) => c.username !== 'guest'), "guest's post with another's comment")
const otherPost = pick(posts, (p) => p.username !== 'guest' && p.comments.some((c) => c.username !== 'guest'), "another's post with another's comment")
const targets: Targets = {
  guestId: guest._id,
  ownPost: ownPost._id,
  otherComment: pick(ownPost.comments, (c) => c.username !== 'guest', 'comment')._id,
  unlikedPost: pick(posts, (p) => p.username !== 'guest' && !p.likes.likedBy.some((u) => u.username === 'guest'), 'unliked post')._id,
  otherPost: otherPost._id,
  otherPostComment: pick(otherPost.comments, (c) => c.username !== 'guest', 'comment')._id,
  followed: pick(guest.following, () => true, 'followed user')._id,
  notFollowed: pick(users, (u) => u._id !== guest._id && !guest.following.some((f) => f._id === u._id), 'unfollowed user')._id,
}

const cases = [...bodyCases(targets), ...requestCases(targets)]
const dbBefore = await snapshotDb(api)
const mediaBefore = await listMedia(api)
// Assertions start only after the last top-level await: tap ends a root test that sits idle after asserting.
t.equal(new Set(cases.map((c) => c.name)).size, cases.length, 'every case has its own name')
t.ok(cases.length >= 150, `${cases.length} cases`)
const statuses = new Map<number, number>()
let serverErrors = 0

for (const { name, request, anonymous } of cases) {
  t.test(name, async (t) => {
    const headers = { ...(request.headers ?? {}), ...(anonymous ? {} : { authorization: token }) }
    const res = await api.app.inject({ ...request, headers })
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
    if (res.statusCode >= 500) serverErrors++
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `a 4xx (${res.statusCode}: ${res.body.slice(0, 160)})`)
    let body: unknown
    try {
      body = res.json()
    } catch {
      body = undefined
    }
    const errors = (body as { errors?: unknown } | undefined)?.errors
    t.ok(
      Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof e === 'string' && e !== ''),
      'the body is { errors: [message, ...] }',
      { body: res.body.slice(0, 200) },
    )
    t.strictSame(Object.keys(body ?? {}), ['errors'], 'and nothing else')
    t.notMatch(res.body, /at \/|node_modules|\.ts:\d+|stack/i, 'no stack or internals')
  })
}

t.test('afterwards: the database is byte-identical, no file was added, no prototype was polluted', async (t) => {
  t.strictSame(await snapshotDb(api), dbBefore, 'database files unchanged')
  t.strictSame(await listMedia(api), mediaBefore, 'media folder unchanged')
  t.equal(({} as { polluted?: unknown }).polluted, undefined, 'Object.prototype is clean')
  t.equal((await api.as(token, { method: 'GET', url: '/api/feed' })).statusCode, 200, 'the guest is still signed in')
  t.comment(`hostile cases: ${cases.length}; 5xx seen: ${serverErrors}; statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`)
  t.equal(serverErrors, 0, 'no 5xx')
})
