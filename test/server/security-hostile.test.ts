import type { InjectOptions } from 'fastify'
import t from 'tap'
import { storedText } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { bodyCases, type HostileCase, type Targets } from '../helpers/hostile-bodies.js'
import {
  EXTRA_CONTENT,
  extraFieldCases,
  NEWCOMERS,
  PLANTED,
  PLANTED_KEYS,
  PLANTED_NUMBER,
} from '../helpers/hostile-extras.js'
import { requestCases } from '../helpers/hostile-requests.js'
import { buildSeededApp, listMedia, snapshotDb } from '../helpers/seeded.js'

/**
 * Hostile input on every route: each named refused case must get a 4xx in the `{ errors }` shape, none a
 * 5xx, and the database files must be byte for byte what they were before the first case. Hostile extra
 * fields may succeed, on a second copy of the seed, but nothing they planted may be stored.
 */
const api = await buildSeededApp(t, { config: { rateLimit: false } })
const token = await api.login('guest')
const memberToken = await api.login('lucia.rossi')
const extrasApi = await buildSeededApp(t, { config: { rateLimit: false } })
const extrasToken = await extrasApi.login('guest')
const extrasMemberToken = await extrasApi.login('lucia.rossi')

interface SeedPost {
  _id: string
  username: string
  content: string
  likes: { likedBy: Array<{ username: string }> }
  comments: Array<{ _id: string; username: string }>
}
interface SeedUser {
  _id: string
  email?: string
  createdAt: string
  bookmarks: unknown[]
  followers: Array<{ _id: string }>
  following: Array<{ _id: string }>
}
const { posts } = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: SeedPost[] }
const { user: guest } = (await api.as(token, { method: 'GET', url: '/api/users/guest' })).json() as {
  user: { _id: string; following: Array<{ _id: string }> }
}
const { users } = (await api.app.inject({ method: 'GET', url: '/api/users' })).json() as {
  users: Array<{ _id: string }>
}

function pick<T>(items: T[], test: (item: T) => boolean, what: string): T {
  const found = items.find(test)
  if (found === undefined) throw new Error(`the seed has no ${what}`)
  return found
}
const ownPost = pick(
  posts,
  (p) => p.username === 'guest' && p.comments.some((c) => c.username !== 'guest'),
  "guest's post with another's comment",
)
const otherPost = pick(
  posts,
  (p) => p.username !== 'guest' && p.comments.some((c) => c.username !== 'guest'),
  "another's post with another's comment",
)
const targets: Targets = {
  guestId: guest._id,
  ownPost: ownPost._id,
  otherComment: pick(ownPost.comments, (c) => c.username !== 'guest', 'comment')._id,
  unlikedPost: pick(
    posts,
    (p) => p.username !== 'guest' && !p.likes.likedBy.some((u) => u.username === 'guest'),
    'unliked post',
  )._id,
  otherPost: otherPost._id,
  otherPostComment: pick(otherPost.comments, (c) => c.username !== 'guest', 'comment')._id,
  followed: pick(guest.following, () => true, 'followed user')._id,
  notFollowed: pick(
    users,
    (u) => u._id !== guest._id && !guest.following.some((f) => f._id === u._id),
    'unfollowed user',
  )._id,
}

const cases = [...bodyCases(targets), ...requestCases(targets)]
const extras = extraFieldCases(targets)
const dbBefore = await snapshotDb(api)
const mediaBefore = await listMedia(api)
const read = async <T>(app: TestApp, url: string, as?: string) => (await app.as(as, { method: 'GET', url })).json() as T
const guestBefore = (await read<{ user: SeedUser }>(extrasApi, '/api/users/guest', extrasToken)).user
const otherPostBefore = (await read<{ post: SeedPost }>(extrasApi, `/api/posts/${targets.otherPost}`)).post
// Assertions start only after the last top-level await: tap ends a root test that sits idle after asserting.
t.equal(
  new Set([...cases, ...extras].map((c) => c.name)).size,
  cases.length + extras.length,
  'every case has its own name',
)
t.ok(cases.length >= 150, `${cases.length} cases`)
const statuses = new Map<number, number>()
let serverErrors = 0

/** Sends one case with the first token, or the second for a member's case, unless it is anonymous, and counts its status. */
async function send(app: TestApp, { request, anonymous, member }: HostileCase, tokens: [string, string]) {
  const as = member ? tokens[1] : tokens[0]
  const headers: InjectOptions['headers'] = { ...(request.headers ?? {}), ...(anonymous ? {} : { authorization: as }) }
  const res = await app.app.inject({ ...request, headers })
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
  if (res.statusCode >= 500) serverErrors++
  return res
}

for (const hostile of cases) {
  await t.test(hostile.name, async (t) => {
    const res = await send(api, hostile, [token, memberToken])
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
      'the body is { errors: [message, ...], code }',
      { body: res.body.slice(0, 200) },
    )
    t.strictSame(Object.keys(body ?? {}), ['errors', 'code'], 'and nothing else')
    t.match((body as { code?: unknown } | undefined)?.code, /^[a-z]+(?:_[a-z]+)*$/, 'a code in snake case')
    t.notMatch(res.body, /at \/|node_modules|\.ts:\d+|stack/i, 'no stack or internals')
  })
}

for (const hostile of extras) {
  await t.test(`extra fields, ${hostile.name}`, async (t) => {
    const res = await send(extrasApi, hostile, [extrasToken, extrasMemberToken])
    t.ok(res.statusCode < 500, `no 5xx (${res.statusCode}: ${res.body.slice(0, 160)})`)
    if (res.statusCode >= 400)
      t.strictSame(Object.keys(res.json() as object), ['errors', 'code'], 'a refusal is { errors, code }')
  })
}

await t.test('afterwards: nothing an extra field planted was stored', async (t) => {
  const stored = await storedText(extrasApi)
  for (const planted of [PLANTED, String(PLANTED_NUMBER), ...PLANTED_KEYS])
    t.notOk(stored.includes(planted), `no "${planted}" on disk`)
  const relogin = await extrasApi.login('guest', 'guestpassword')
  const guest = (await read<{ user: SeedUser }>(extrasApi, '/api/users/guest', relogin)).user
  t.strictSame(
    [guest._id, guest.email, guest.bookmarks, guest.followers, guest.following, guest.createdAt],
    [
      guestBefore._id,
      guestBefore.email,
      guestBefore.bookmarks,
      guestBefore.followers,
      guestBefore.following,
      guestBefore.createdAt,
    ],
    "the guest's id, email, bookmarks, follows and dates are as they were",
  )
  for (const username of NEWCOMERS) {
    const newcomer = (await read<{ user: SeedUser }>(extrasApi, `/api/users/${username}`)).user
    t.not(newcomer._id, targets.guestId, `${username} has an id of its own`)
    t.strictSame([newcomer.followers, newcomer.following], [[], []], `${username} follows and is followed by no one`)
  }
  const otherPost = (await read<{ post: SeedPost }>(extrasApi, `/api/posts/${targets.otherPost}`)).post
  t.strictSame(
    [otherPost.username, otherPost.content, otherPost.comments],
    [otherPostBefore.username, otherPostBefore.content, otherPostBefore.comments],
    "another's post keeps its author, text and comments",
  )
  const { posts } = await read<{ posts: SeedPost[] }>(extrasApi, '/api/posts')
  const created = posts.filter((p) => p.content.startsWith(EXTRA_CONTENT) && p._id !== targets.ownPost)
  t.ok(created.length > 0, 'the posts with extra fields were made')
  t.ok(
    created.every((p) => p.username === 'guest' && p.likes.likedBy.length === 0 && p.comments.length === 0),
    'all by the guest, with no likes or comments',
  )
  const liked = posts.find((p) => p._id === targets.unlikedPost)
  t.equal(
    liked?.likes.likedBy.filter((u) => u.username === 'guest').length,
    1,
    'a like with a body likes once; no override deletes',
  )
  t.equal(({} as { polluted?: unknown }).polluted, undefined, 'Object.prototype is clean')
})

await t.test('afterwards: the database is byte-identical, no file was added, no prototype was polluted', async (t) => {
  t.strictSame(await snapshotDb(api), dbBefore, 'database files unchanged')
  t.strictSame(await listMedia(api), mediaBefore, 'media folder unchanged')
  t.equal(({} as { polluted?: unknown }).polluted, undefined, 'Object.prototype is clean')
  t.equal((await api.as(token, { method: 'GET', url: '/api/feed' })).statusCode, 200, 'the guest is still signed in')
  t.comment(
    `hostile cases: ${cases.length}; 5xx seen: ${serverErrors}; statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  )
  t.equal(serverErrors, 0, 'no 5xx')
})
