import t from 'tap'
import {
  BookmarksReplySchema,
  FeedReplySchema,
  LikersReplySchema,
  PostReplySchema,
  PostsReplySchema,
  type Post,
} from '../../server/schemas/posts.js'
import { SearchReplySchema } from '../../server/schemas/search.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'

/** Bounded post views and compact lists (docs/api-contract.md §2, DECISIONS §1). */
const SHOWN = 20
const FANS = 25

const api = await buildApiApp(t)
const guest = await api.login('guest')
const fans: SignedUp[] = []
for (let i = 0; i < FANS; i++) fans.push(await signup(api))
const fan = (i: number) => fans[i] as SignedUp

const post = async (token: string, content: string, mediaUrl = '') => {
  const res = await api.as(token, { method: 'POST', url: '/api/posts', payload: { content, mediaUrl } })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
const write = async (token: string, url: string, payload?: object) => {
  const res = await api.as(token, {
    method: 'POST',
    url,
    payload: payload ?? {},
    headers: { prefer: 'return=minimal' },
  })
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
}
const get = async (token: string | undefined, url: string) =>
  expectOk(t, await api.as(token, { method: 'GET', url }), 200, PostReplySchema).post

// A popular post: every fan likes it and comments on it, in order; a second post every fan likes and unlikes.
const popular = await post(guest, 'A popular post #boundedviews', 'https://images.example/popular.png')
for (let i = 0; i < FANS; i++) {
  await write(fan(i).token, `/api/posts/like/${popular._id}`)
  await write(fan(i).token, `/api/comments/add/${popular._id}`, { commentData: { text: `comment ${i}` } })
}
const undone = await post(guest, 'Liked and unliked by everyone')
for (let i = 0; i < FANS; i++) {
  await write(fan(i).token, `/api/posts/like/${undone._id}`)
  await write(fan(i).token, `/api/posts/dislike/${undone._id}`)
}
const quiet = await post(guest, 'A quiet post #boundedviews')
for (const i of [3, 1, 2]) await write(fan(i).token, `/api/posts/like/${quiet._id}`)
await write(fan(0).token, `/api/comments/add/${quiet._id}`, { commentData: { text: 'only comment' } })

await write(guest, `/api/users/bookmark/${popular._id}`)
const guestId = (
  (await api.as(undefined, { method: 'GET', url: '/api/users/guest' })).json() as { user: { _id: string } }
).user._id
await write(fan(0).token, `/api/users/follow/${guestId}`)

const names = (users: readonly { username: string }[]) => users.map((user) => user.username)
const fanNames = (from: number, to: number) => fans.slice(from, to).map((one) => one.username)

await t.test('a popular post shows the 20 most recent likers and comments beside the true counts', async (t) => {
  const view = await get(undefined, `/api/posts/${popular._id}`)
  t.equal(view.likes.likeCount, FANS, 'likeCount counts every liker')
  t.strictSame(names(view.likes.likedBy), fanNames(FANS - SHOWN, FANS), 'likedBy: the 20 most recent, in order')
  t.equal(view.commentCount, FANS, 'commentCount counts every comment')
  t.strictSame(
    view.comments.map((comment) => comment.text),
    Array.from({ length: SHOWN }, (_, i) => `comment ${FANS - SHOWN + i}`),
    'comments: the 20 newest, oldest first',
  )
  t.equal(view.image, view.mediaUrl, 'the image alias repeats mediaUrl')

  const unliked = await get(undefined, `/api/posts/${undone._id}`)
  t.equal(unliked.likes.likeCount, 0)
  t.strictSame(names(unliked.likes.dislikedBy), fanNames(FANS - SHOWN, FANS), 'dislikedBy: the 20 most recent')
})

await t.test('a reader who likes a popular post sees themselves first among its likers', async (t) => {
  const first = await get(fan(0).token, `/api/posts/${popular._id}`)
  t.equal(first.likes.likedBy.length, SHOWN, 'still 20')
  t.strictSame(names(first.likes.likedBy), [fan(0).username, ...fanNames(FANS - SHOWN + 1, FANS)], 'me, then 19 recent')
  const recent = await get(fan(FANS - 1).token, `/api/posts/${popular._id}`)
  t.equal(names(recent.likes.likedBy)[0], fan(FANS - 1).username, 'a recent liker is moved first')
  t.equal(new Set(names(recent.likes.likedBy)).size, SHOWN, 'nobody is shown twice')
  const stranger = await get(guest, `/api/posts/${popular._id}`)
  t.strictSame(
    names(stranger.likes.likedBy),
    fanNames(FANS - SHOWN, FANS),
    'someone who does not like it sees the recent 20',
  )
})

await t.test('below 20 nothing is left out or reordered', async (t) => {
  const view = await get(fan(2).token, `/api/posts/${quiet._id}`)
  t.strictSame(
    names(view.likes.likedBy),
    [3, 1, 2].map((i) => fan(i).username),
    'every liker, in the order they liked',
  )
  t.equal(view.likes.likeCount, 3)
  t.equal(view.commentCount, 1)
  t.equal(view.comments.length, 1)
})

await t.test('GET /api/posts/{id}/likes pages every liker, the most recent first', async (t) => {
  const seen: string[] = []
  let cursor: string | null = null
  for (let page = 0; page < 5; page++) {
    const url: string = `/api/posts/${popular._id}/likes?limit=10${cursor ? `&cursor=${cursor}` : ''}`
    const body = expectOk(t, await api.as(undefined, { method: 'GET', url }), 200, LikersReplySchema)
    t.ok(body.users.length <= 10, 'at most a page')
    seen.push(...names(body.users))
    cursor = body.nextCursor
    if (cursor === null) break
  }
  t.equal(cursor, null, 'ends with a null cursor')
  t.strictSame(seen, fanNames(0, FANS).reverse(), 'every liker once, newest first')

  const empty = expectOk(
    t,
    await api.as(undefined, { method: 'GET', url: `/api/posts/${undone._id}/likes` }),
    200,
    LikersReplySchema,
  )
  t.strictSame(empty, { users: [], nextCursor: null }, 'a post nobody likes')
  const unknown = await api.as(undefined, {
    method: 'GET',
    url: '/api/posts/00000000-0000-4000-8000-000000000000/likes',
  })
  expectError(t, unknown, 404, 'Post not found', 'an unknown post')
  const badLimit = await api.as(undefined, { method: 'GET', url: `/api/posts/${popular._id}/likes?limit=0` })
  t.equal(badLimit.statusCode, 400, 'limit=0 is a 400')
  const badCursor = await api.as(undefined, { method: 'GET', url: `/api/posts/${popular._id}/likes?cursor=zzz` })
  t.equal(badCursor.statusCode, 400, 'a forged cursor is a 400')
})

const LISTS = [
  { name: 'GET /api/feed', url: '/api/feed?compact=1', schema: FeedReplySchema, key: 'posts' },
  { name: 'GET /api/posts', url: '/api/posts?compact=1', schema: PostsReplySchema, key: 'posts' },
  { name: 'GET /api/posts/user', url: '/api/posts/user/guest?compact=1', schema: PostsReplySchema, key: 'posts' },
  {
    name: 'GET /api/posts/tag',
    url: '/api/posts/tag/boundedviews?compact=true',
    schema: FeedReplySchema,
    key: 'posts',
  },
  { name: 'GET /api/search', url: '/api/search?q=popular&compact=1', schema: SearchReplySchema, key: 'posts' },
  {
    name: 'GET /api/users/bookmark',
    url: '/api/users/bookmark?compact=1',
    schema: BookmarksReplySchema,
    key: 'bookmarks',
  },
] as const

const postsOf = (body: object, key: string) => (body as Record<string, Post[]>)[key] ?? []

await t.test('compact=1 on every list: no people but the reader, true counts, no aliases', async (t) => {
  for (const list of LISTS) {
    for (const reader of [guest, fan(0).token]) {
      // Only guest bookmarked it.
      if (list.name === 'GET /api/users/bookmark' && reader !== guest) continue
      const res = await api.as(reader, { method: 'GET', url: list.url })
      const found = postsOf(expectOk(t, res, 200, list.schema, list.name), list.key).find((p) => p._id === popular._id)
      if (!found) {
        t.fail(`${list.name} holds the popular post`)
        continue
      }
      t.equal(found.likes.likeCount, FANS, `${list.name}: the true likeCount`)
      t.equal(found.commentCount, FANS, `${list.name}: the true commentCount`)
      t.strictSame(found.comments, [], `${list.name}: no comments`)
      t.strictSame(found.likes.dislikedBy, [], `${list.name}: no dislikes`)
      t.notOk('image' in found, `${list.name}: no alias`)
      const expected = reader === guest ? [] : [fan(0).username]
      t.strictSame(names(found.likes.likedBy), expected, `${list.name}: likedBy holds only the reader who likes it`)
    }
  }
})

await t.test('compact=0 and no compact keep full views; a bad compact value is a 400', async (t) => {
  for (const url of ['/api/posts', '/api/posts?compact=0', '/api/posts?compact=false']) {
    const body = expectOk(t, await api.as(undefined, { method: 'GET', url }), 200, PostsReplySchema)
    const found = body.posts.find((p) => p._id === popular._id)
    t.equal(found?.likes.likedBy.length, SHOWN, `${url}: full likedBy`)
    t.equal(found?.comments.length, SHOWN, `${url}: full comments`)
  }
  const bad = await api.as(undefined, { method: 'GET', url: '/api/posts?compact=yes' })
  t.equal(bad.statusCode, 400, 'compact=yes is a 400')
  t.match(bad.json(), { errors: [/compact/] }, 'naming the field')
})

await t.test('a list page stays small however popular its posts are', async (t) => {
  const full = await api.as(undefined, { method: 'GET', url: `/api/posts/${popular._id}` })
  const compact = await api.as(fan(0).token, { method: 'GET', url: '/api/posts/user/guest?compact=1&limit=1' })
  const compactPost = postsOf(compact.json() as object, 'posts')[0]
  t.equal(compactPost?._id, quiet._id, 'the newest of guest, the quiet post')
  const popularCompact = postsOf(
    (await api.as(fan(0).token, { method: 'GET', url: '/api/posts/tag/boundedviews?compact=1' })).json() as object,
    'posts',
  ).find((p) => p._id === popular._id)
  const bytes = Buffer.byteLength(JSON.stringify(popularCompact))
  t.ok(bytes < 1200, `a compact post liked and commented on 25 times is ${bytes} bytes`)
  t.ok(Buffer.byteLength(full.body) < 20_000, `its full view is ${Buffer.byteLength(full.body)} bytes`)
})
