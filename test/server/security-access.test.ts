import { createHmac, randomUUID } from 'node:crypto'
import type { InjectOptions } from 'fastify'
import t from 'tap'
import { TEST_SECRET } from '../helpers/app.js'
import { fileUpload, PNG } from '../helpers/images.js'
import { buildSeededApp, listMedia, snapshotDb } from '../helpers/seeded.js'

/**
 * The access-control grid: every write route, called as the owner of what it changes, as another user,
 * without a token and as a deleted user. Each cell has its expected status; a refused cell must leave the
 * database files and the media folder exactly as they were.
 */
const api = await buildSeededApp(t, { config: { rateLimit: false } })
const owner = await api.login('maya.lin')
const other = await api.login('theo_park')
const third = await api.login('sam.okafor')

/**
 * Chirp has no account deletion, so a deleted user is what one would leave behind: a token signed with
 * the server's own key for a user id the database no longer holds.
 */
function tokenOfDeletedUser(): string {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ _id: randomUUID(), username: 'ghost_user', tv: 0, iat: now, exp: now + 600 })}`
  return `${head}.${createHmac('sha256', TEST_SECRET).update(head).digest('base64url')}`
}

type Role = 'owner' | 'other' | 'anonymous' | 'deleted'
const ROLES: Role[] = ['anonymous', 'deleted', 'other', 'owner']
const tokens: Record<Role, string | undefined> = { owner, other, anonymous: undefined, deleted: tokenOfDeletedUser() }
const idOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { _id: string })._id

const minimal = { prefer: 'return=minimal' }
async function newPost(token: string): Promise<string> {
  const res = await api.as(token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: `grid ${randomUUID()}` },
    headers: minimal,
  })
  return (res.json() as { post: { _id: string } }).post._id
}
async function newComment(token: string, postId: string): Promise<string> {
  const res = await api.as(token, {
    method: 'POST',
    url: `/api/comments/add/${postId}`,
    payload: { text: 'grid comment' },
    headers: minimal,
  })
  const comments = (res.json() as { post: { comments: Array<{ _id: string }> } }).post.comments
  return (comments[comments.length - 1] as { _id: string })._id
}
const call = (token: string | undefined, request: InjectOptions) =>
  api.as(token, { ...request, headers: { ...minimal, ...(request.headers ?? {}) } })

interface Row {
  route: string
  /** Builds what the route acts on (owned by `owner`) and returns the request each role makes. */
  setup: () => Promise<(role: Role) => InjectOptions>
  expect: Record<Role, number>
  /** What an allowed call changes: the database unless said otherwise. */
  changes?: 'media' | 'nothing'
}

const NO_TOKEN = 401
const GONE = 404
const refusedOutside = { anonymous: NO_TOKEN, deleted: GONE }

/** A row acting on a fresh post of the owner's; `prepare` runs first (likes before a dislike, say). */
function postRow(
  route: string,
  request: (id: string) => InjectOptions,
  expect: { owner: number; other: number },
  prepare?: (id: string) => Promise<unknown>,
): Row {
  return {
    route,
    setup: async () => {
      const id = await newPost(owner)
      await prepare?.(id)
      return () => request(id)
    },
    expect: { ...expect, ...refusedOutside },
  }
}

/** A row acting on a fresh comment by `commentBy` on a fresh post by `postBy`. */
function commentRow(
  route: string,
  postBy: string,
  commentBy: string,
  request: (ids: string) => InjectOptions,
  expect: { owner: number; other: number },
): Row {
  return {
    route,
    setup: async () => {
      const postId = await newPost(postBy)
      const commentId = await newComment(commentBy, postId)
      return () => request(`${postId}/${commentId}`)
    },
    expect: { ...expect, ...refusedOutside },
  }
}

const likedByBoth = (id: string) =>
  Promise.all([owner, other].map((token) => call(token, { method: 'POST', url: `/api/posts/like/${id}` })))
const bookmarkedByBoth = (id: string) =>
  Promise.all([owner, other].map((token) => call(token, { method: 'POST', url: `/api/users/bookmark/${id}` })))

const rows: Row[] = [
  {
    route: 'POST /api/posts',
    setup: async () => () => ({ method: 'POST', url: '/api/posts', payload: { content: 'hello' } }),
    expect: { owner: 201, other: 201, ...refusedOutside },
  },
  postRow(
    'POST /api/posts/edit/:id',
    (id) => ({ method: 'POST', url: `/api/posts/edit/${id}`, payload: { content: 'edited' } }),
    { owner: 201, other: 400 },
  ),
  postRow('DELETE /api/posts/:id', (id) => ({ method: 'DELETE', url: `/api/posts/${id}` }), { owner: 201, other: 400 }),
  postRow('POST /api/posts/like/:id', (id) => ({ method: 'POST', url: `/api/posts/like/${id}` }), {
    owner: 201,
    other: 201,
  }),
  postRow(
    'POST /api/posts/dislike/:id',
    (id) => ({ method: 'POST', url: `/api/posts/dislike/${id}` }),
    { owner: 201, other: 201 },
    likedByBoth,
  ),
  postRow(
    'POST /api/comments/add/:postId',
    (id) => ({ method: 'POST', url: `/api/comments/add/${id}`, payload: { text: 'hi' } }),
    { owner: 201, other: 201 },
  ),
  postRow('POST /api/users/bookmark/:id', (id) => ({ method: 'POST', url: `/api/users/bookmark/${id}` }), {
    owner: 200,
    other: 200,
  }),
  postRow(
    'POST /api/users/remove-bookmark/:id',
    (id) => ({ method: 'POST', url: `/api/users/remove-bookmark/${id}` }),
    { owner: 200, other: 200 },
    bookmarkedByBoth,
  ),
  commentRow(
    "POST /api/comments/edit/:postId/:commentId (the owner's comment on a third user's post)",
    third,
    owner,
    (ids) => ({ method: 'POST', url: `/api/comments/edit/${ids}`, payload: { text: 'edited' } }),
    { owner: 201, other: 400 },
  ),
  commentRow(
    "POST /api/comments/edit/:postId/:commentId (the post's owner editing another's comment)",
    owner,
    third,
    (ids) => ({ method: 'POST', url: `/api/comments/edit/${ids}`, payload: { text: 'edited' } }),
    { owner: 400, other: 400 },
  ),
  ...(['POST', 'DELETE'] as const).flatMap((method) => [
    commentRow(
      `${method} /api/comments/delete/:postId/:commentId (the owner's comment on a third user's post)`,
      third,
      owner,
      (ids) => ({ method, url: `/api/comments/delete/${ids}` }),
      { owner: 201, other: 400 },
    ),
    commentRow(
      `${method} /api/comments/delete/:postId/:commentId (a third user's comment on the owner's post)`,
      owner,
      third,
      (ids) => ({ method, url: `/api/comments/delete/${ids}` }),
      { owner: 201, other: 400 },
    ),
  ]),
  ...(['upvote', 'downvote'] as const).map((verb) =>
    commentRow(
      `POST /api/comments/${verb}/:postId/:commentId`,
      owner,
      owner,
      (ids) => ({ method: 'POST', url: `/api/comments/${verb}/${ids}` }),
      { owner: 201, other: 201 },
    ),
  ),
  {
    route: "POST /api/users/edit (another user naming the owner's username)",
    setup: async () => (role) => ({
      method: 'POST',
      url: '/api/users/edit',
      payload: role === 'other' ? { username: 'maya.lin', bio: 'taken over' } : { bio: 'my new bio' },
    }),
    expect: { owner: 201, other: 404, ...refusedOutside },
  },
  {
    route: 'POST /api/users/follow/:id (the owner is the one followed)',
    setup: async () => {
      await call(other, { method: 'POST', url: `/api/users/unfollow/${idOf(owner)}` })
      return () => ({ method: 'POST', url: `/api/users/follow/${idOf(owner)}` })
    },
    expect: { owner: 404, other: 200, ...refusedOutside },
  },
  {
    route: 'POST /api/users/unfollow/:id (the owner is the one unfollowed)',
    setup: async () => {
      await call(other, { method: 'POST', url: `/api/users/follow/${idOf(owner)}` })
      return () => ({ method: 'POST', url: `/api/users/unfollow/${idOf(owner)}` })
    },
    expect: { owner: 404, other: 200, ...refusedOutside },
  },
  {
    route: 'POST /api/notifications/read (each caller marks their own)',
    setup: async () => {
      // Both the owner and the other user get a notification to mark.
      await call(owner, { method: 'POST', url: `/api/posts/like/${await newPost(other)}` })
      await call(other, { method: 'POST', url: `/api/posts/like/${await newPost(owner)}` })
      return () => ({ method: 'POST', url: '/api/notifications/read', payload: {} })
    },
    expect: { owner: 200, other: 200, ...refusedOutside },
  },
  {
    route: "POST /api/notifications/read (up to the owner's notification)",
    setup: async () => {
      await call(other, { method: 'POST', url: `/api/posts/like/${await newPost(owner)}` })
      const mine = (await call(owner, { method: 'GET', url: '/api/notifications?limit=1' })).json() as {
        notifications: { _id: string }[]
      }
      const before = mine.notifications[0]?._id
      return () => ({ method: 'POST', url: '/api/notifications/read', payload: { before } })
    },
    expect: { owner: 200, other: 404, ...refusedOutside },
  },
  {
    route: 'POST /api/media',
    setup: async () => () => ({ method: 'POST', url: '/api/media', ...fileUpload(PNG) }),
    expect: { owner: 201, other: 201, ...refusedOutside },
    changes: 'media',
  },
  {
    route: 'POST /api/events/ticket',
    setup: async () => () => ({ method: 'POST', url: '/api/events/ticket' }),
    expect: { owner: 200, other: 200, ...refusedOutside },
    changes: 'nothing',
  },
]

let cells = 0
for (const row of rows) {
  await t.test(row.route, async (t) => {
    const requestOf = await row.setup()
    for (const role of ROLES) {
      const expected = row.expect[role]
      const dbBefore = await snapshotDb(api)
      const mediaBefore = await listMedia(api)
      const res = await call(tokens[role], requestOf(role))
      cells++
      t.equal(
        res.statusCode,
        expected,
        `${role}: ${expected}${res.statusCode === expected ? '' : ` (${res.body.slice(0, 120)})`}`,
      )
      const dbChanged = JSON.stringify(await snapshotDb(api)) !== JSON.stringify(dbBefore)
      const mediaChanged = JSON.stringify(await listMedia(api)) !== JSON.stringify(mediaBefore)
      if (expected >= 400) {
        t.match(res.json(), { errors: [String] }, `${role}: { errors }`)
        t.notOk(dbChanged, `${role}: the database is unchanged`)
        t.notOk(mediaChanged, `${role}: the media folder is unchanged`)
      } else {
        t.equal(
          dbChanged,
          row.changes === undefined,
          `${role}: the database ${row.changes === undefined ? 'changed' : 'is unchanged'}`,
        )
        t.equal(
          mediaChanged,
          row.changes === 'media',
          `${role}: the media folder ${row.changes === 'media' ? 'changed' : 'is unchanged'}`,
        )
      }
    }
  })
}

await t.test("logout ends only the caller's own sessions", async (t) => {
  const mine = await api.login('lucia.rossi')
  const theirs = await api.login('noah_kim')
  t.equal(
    (await api.as(tokens.anonymous, { method: 'POST', url: '/api/auth/logout' })).statusCode,
    401,
    'anonymous: 401',
  )
  t.equal((await api.as(tokens.deleted, { method: 'POST', url: '/api/auth/logout' })).statusCode, 404, 'deleted: 404')
  t.equal((await api.as(theirs, { method: 'POST', url: '/api/auth/logout' })).statusCode, 200, 'another user logs out')
  t.equal((await api.as(mine, { method: 'GET', url: '/api/feed' })).statusCode, 200, "the owner's session goes on")
  t.equal((await api.as(mine, { method: 'POST', url: '/api/auth/logout' })).statusCode, 200, 'the owner logs out')
  t.equal((await api.as(mine, { method: 'GET', url: '/api/feed' })).statusCode, 401, "and the owner's token is spent")
  cells += 4
})

await t.test("logout-all ends only the caller's own sessions", async (t) => {
  const logoutAll = { method: 'POST', url: '/api/auth/logout-all' } as const
  const mine = await api.login('lucia.rossi')
  const theirs = await api.login('noah_kim')
  t.equal((await api.as(tokens.anonymous, logoutAll)).statusCode, 401, 'anonymous: 401')
  t.equal((await api.as(tokens.deleted, logoutAll)).statusCode, 404, 'deleted: 404')
  t.equal((await api.as(theirs, logoutAll)).statusCode, 200, 'another user logs out everywhere')
  t.equal((await api.as(mine, { method: 'GET', url: '/api/feed' })).statusCode, 200, "the owner's session goes on")
  t.equal((await api.as(mine, logoutAll)).statusCode, 200, 'the owner logs out everywhere')
  t.equal((await api.as(mine, { method: 'GET', url: '/api/feed' })).statusCode, 401, "and the owner's token is spent")
  cells += 4
})

await t.test('the grid is complete', async (t) => {
  t.comment(`access-control cells checked: ${cells} (${rows.length + 2} write routes × 4 callers)`)
  t.equal(cells, (rows.length + 2) * 4)
})
