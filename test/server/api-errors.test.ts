import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import type { LightMyRequestResponse } from 'fastify'
import t from 'tap'
import type { Comment, Post } from '../../server/schemas/posts.js'
import type { TestApp } from '../helpers/app.js'
import { withSql } from '../helpers/store-under-test.js'
import { buildApiApp, expectError, IMAGE_BYTES, multipart, signup, type SignedUp } from '../helpers/api.js'

/**
 * The error catalogue (docs/api-contract.md §3, common/messages.ts), one row at a time, each provoked through HTTP.
 * Messages are written out here on purpose: a changed message must fail a test. The token rows are
 * covered in depth in api-auth (every kind of bad token, and a token whose user is gone), 429 with the
 * rate limits' own tests.
 */
const api = await buildApiApp(t)
const MINIMAL = { prefer: 'return=minimal' }

const [author, other, stranger] = [await signup(api), await signup(api), await signup(api)]
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who?: SignedUp, payload?: object) =>
  api.as(who?.token, { method, url, headers: MINIMAL, ...(payload ? { payload } : {}) })

async function newPost(who: SignedUp = author): Promise<Post> {
  return ((await call('POST', '/api/posts', who, { content: 'a post for the catalogue' })).json() as { post: Post })
    .post
}
async function newComment(postId: string, who: SignedUp = other): Promise<Comment> {
  const post = (
    (await call('POST', `/api/comments/add/${postId}`, who, { text: 'a comment' })).json() as { post: Post }
  ).post
  return post.comments.at(-1) as Comment
}
/** Runs `first`, which must succeed, then `again`, which must not. */
async function twice(first: () => Promise<LightMyRequestResponse>, again = first) {
  const res = await first()
  if (res.statusCode >= 300) throw new Error(`setup failed: ${res.statusCode} ${res.body}`)
  return again()
}

const upload = (data: Buffer) =>
  api.as(author.token, { method: 'POST', url: '/api/media', ...multipart('file', 'a.png', 'image/png', data) })

async function voteTwice(direction: 'upvote' | 'downvote') {
  const { _id } = await newPost()
  const comment = await newComment(_id)
  return twice(() => call('POST', `/api/comments/${direction}/${_id}/${comment._id}`, stranger))
}

const rows: [status: number, message: string, provoke: () => Promise<LightMyRequestResponse>][] = [
  [
    401,
    'The token is invalid. Unauthorized access error.',
    () => api.as('Bearer not.a.token', { method: 'GET', url: '/api/feed' }),
  ],
  [
    404,
    'The username you entered is not Registered. Not Found error',
    () => call('POST', '/api/auth/login', undefined, { username: 'no_such_user', password: 'whatever1' }),
  ],
  [
    401,
    'The credentials you entered are invalid. Unauthorized access error.',
    () => call('POST', '/api/auth/login', undefined, { username: author.username, password: 'not-the-password' }),
  ],
  [
    422,
    'Unprocessable Entity. Username Already Exists.',
    () =>
      call('POST', '/api/auth/signup', undefined, {
        username: author.username.toUpperCase(),
        password: 'long-enough',
        firstName: 'A',
        lastName: 'B',
        email: 'a@b.co',
      }),
  ],
  [
    400,
    "Cannot edit a Post doesn't belong to the logged in User.",
    async () => call('POST', `/api/posts/edit/${(await newPost())._id}`, other, { content: 'mine now' }),
  ],
  [
    400,
    "Cannot delete a Post doesn't belong to the logged in User.",
    async () => call('DELETE', `/api/posts/${(await newPost())._id}`, other),
  ],
  [
    400,
    'Cannot like a post that is already liked.',
    async () => {
      const { _id } = await newPost()
      return twice(() => call('POST', `/api/posts/like/${_id}`, other))
    },
  ],
  [
    400,
    'Cannot decrement like less than 0.',
    async () => call('POST', `/api/posts/dislike/${(await newPost())._id}`, other),
  ],
  [
    400,
    'Cannot dislike a post that is already disliked.',
    async () => {
      const { _id } = await newPost()
      return twice(
        () => call('POST', `/api/posts/like/${_id}`, other),
        () => call('POST', `/api/posts/dislike/${_id}`, stranger),
      )
    },
  ],
  [
    400,
    "Cannot edit a comment doesn't belong to the User.",
    async () => {
      const { _id } = await newPost()
      return call('POST', `/api/comments/edit/${_id}/${(await newComment(_id))._id}`, author, {
        text: 'the post author edits',
      })
    },
  ],
  [
    400,
    "Cannot delete a comment doesn't belong to the User.",
    async () => {
      const { _id } = await newPost()
      return call('POST', `/api/comments/delete/${_id}/${(await newComment(_id))._id}`, stranger)
    },
  ],
  [400, 'Cannot upvote a post that is already upvoted.', () => voteTwice('upvote')],
  [400, 'Cannot downvote a post that is already downvoted.', () => voteTwice('downvote')],
  [
    400,
    'This Post is already bookmarked',
    async () => {
      const { _id } = await newPost()
      return twice(() => call('POST', `/api/users/bookmark/${_id}`, other))
    },
  ],
  [
    400,
    'Post not bookmarked yet',
    async () => call('POST', `/api/users/remove-bookmark/${(await newPost())._id}`, other),
  ],
  [
    400,
    'User Already following',
    async () => {
      const res = await twice(() => call('POST', `/api/users/follow/${other.user._id}`, author))
      await call('POST', `/api/users/unfollow/${other.user._id}`, author)
      return res
    },
  ],
  [400, 'User already not following', () => call('POST', `/api/users/unfollow/${stranger.user._id}`, author)],
  [404, 'You cannot follow yourself', () => call('POST', `/api/users/follow/${author.user._id}`, author)],
  [
    404,
    'Username cannot be changed',
    () => call('POST', '/api/users/edit', author, { username: `${author.username}x` }),
  ],
  [404, 'Post not found', () => call('GET', `/api/posts/${crypto.randomUUID()}`)],
  [
    404,
    'Comment not found',
    async () =>
      call('POST', `/api/comments/edit/${(await newPost())._id}/${crypto.randomUUID()}`, author, { text: 'x' }),
  ],
  [404, 'User not found', () => call('GET', '/api/users/no_such_user')],
  [
    400,
    'text must be string',
    async () => call('POST', `/api/comments/add/${(await newPost())._id}`, author, { text: 123 }),
  ],
  [400, 'bio must be string', () => call('POST', '/api/users/edit', author, { bio: 5, password: 'x' })],
  [
    400,
    'portfolio must be string',
    () => call('POST', '/api/users/edit', author, { portfolio: ['https://example.com'] }),
  ],
  [
    400,
    'content must NOT have more than 500 characters',
    () => call('POST', '/api/posts', author, { content: 'x'.repeat(501), author: 'y' }),
  ],
  [
    400,
    'A text/plain body must hold JSON',
    () =>
      api.as(author.token, {
        method: 'POST',
        url: '/api/posts',
        payload: 'content=x',
        headers: { 'content-type': 'text/plain' },
      }),
  ],
  [400, 'postId must match pattern "^[A-Za-z0-9_-]+$"', () => call('GET', '/api/posts/not.an.id')],
  [400, 'limit must be >= 1', () => call('GET', '/api/posts?limit=0')],
  [413, 'file must be less than 20mb', () => upload(Buffer.concat([IMAGE_BYTES.png, Buffer.alloc(20_971_520)]))],
  [415, 'file must be or an Image (JPEG/PNG)', () => upload(Buffer.from('plain text, not a picture'))],
  [404, 'Route not found', () => call('GET', '/api/no/such/route')],
]

for (const [status, message, provoke] of rows) {
  await t.test(`${status} ${message}`, async (t) => expectError(t, await provoke(), status, message))
}

/** Makes the next write fail while reads still work; returns what undoes it. */
async function breakWrites(app: TestApp): Promise<() => Promise<void>> {
  const { schema } = app
  if (schema !== undefined) {
    // A constraint no new row can meet: the insert fails inside PostgreSQL, as a full disk would.
    await withSql(schema, (sql) => sql`alter table posts add constraint broken check (false) not valid`)
    return () => withSql(schema, async (sql) => void (await sql`alter table posts drop constraint broken`))
  }
  // db.json is the store's commit point, replaced through a temporary file beside it. A directory in that
  // file's place makes the next write fail, while db.json itself stays readable.
  const blocker = path.join(app.dataDir, `db.json.${process.pid}.tmp`)
  await mkdir(blocker)
  return () => rm(blocker, { recursive: true })
}

await t.test('500 Internal server error, never a stack or internals', async (t) => {
  const broken = await buildApiApp(t)
  const token = await broken.login('guest')
  const before = (await broken.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: Post[] }
  const restore = await breakWrites(broken)
  const res = await broken.as(token, { method: 'POST', url: '/api/posts', payload: { content: 'never stored' } })
  expectError(t, res, 500, 'Internal server error')
  t.notMatch(res.body, /EISDIR|\.tmp|\/tmp\/|at .*\(|node:/, 'no error code, path or stack')
  const after = (await broken.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: Post[] }
  t.equal(after.posts.length, before.posts.length, 'the write that failed is not visible')

  await restore()
  const retry = await broken.as(token, { method: 'POST', url: '/api/posts', payload: { content: 'stored now' } })
  t.equal(retry.statusCode, 201, 'the store recovers once the disk does')
})
