import t from 'tap'
import { FeedReplySchema, PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectOk, signup } from '../helpers/api.js'

/**
 * Reads keep each post's view and bytes in the app's read cache (plugins/read-cache.ts), and each feed's
 * authors in the embedded store's index, between requests. Every write that changes what a read shows must show on the very next read, after
 * reads that filled those caches: a cache that missed a change would answer the earlier page here.
 */
const api = await buildApiApp(t)
const author = await signup(api, { firstName: 'Ada', lastName: 'Author' })
const reader = await signup(api, { firstName: 'Rea', lastName: 'Der' })
const fan = await signup(api, { firstName: 'Fan', lastName: 'One' })

const post = (url: string, token: string, payload: object = {}) => api.as(token, { method: 'POST', url, payload })
const ok = async (url: string, token: string, payload: object = {}) => {
  const res = await post(url, token, payload)
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return res.json() as { post?: Post }
}

const created = await ok('/api/posts', author.token, { content: 'a post to watch' })
const postId = created.post?._id ?? ''
await ok(`/api/users/follow/${author.user._id}`, reader.token)

/** The watched post, as the feed and the post list each show it, each read twice so both come from the caches. */
async function watched(): Promise<Post[]> {
  const seen: Post[] = []
  for (let round = 0; round < 2; round++) {
    const feed = await api.as(reader.token, { method: 'GET', url: '/api/feed?limit=20' })
    const list = await api.as(undefined, { method: 'GET', url: '/api/posts?limit=20' })
    const fromFeed = expectOk(t, feed, 200, FeedReplySchema).posts.find((p) => p._id === postId)
    const fromList = expectOk(t, list, 200, PostsReplySchema).posts.find((p) => p._id === postId)
    if (!fromFeed || !fromList) throw new Error('the watched post is on both pages')
    seen.push(fromFeed, fromList)
  }
  return seen
}

await t.test('a like and an unlike show on the next read', async (t) => {
  await watched()
  await ok(`/api/posts/like/${postId}`, fan.token)
  for (const view of await watched()) {
    t.equal(view.likes.likeCount, 1)
    t.strictSame(
      view.likes.likedBy.map((user) => user._id),
      [fan.user._id],
    )
  }
  await ok(`/api/posts/dislike/${postId}`, fan.token)
  for (const view of await watched()) t.equal(view.likes.likeCount, 0)
})

await t.test('a comment, its edit and a vote show on the next read', async (t) => {
  await watched()
  const { post: commented } = await ok(`/api/comments/add/${postId}`, fan.token, { text: 'first' })
  const commentId = commented?.comments[0]?._id ?? ''
  for (const view of await watched())
    t.strictSame(
      view.comments.map((comment) => comment.text),
      ['first'],
    )
  await ok(`/api/comments/edit/${postId}/${commentId}`, fan.token, { text: 'edited' })
  for (const view of await watched()) t.equal(view.comments[0]?.text, 'edited')
  await ok(`/api/comments/upvote/${postId}/${commentId}`, reader.token)
  for (const view of await watched())
    t.strictSame(
      view.comments[0]?.votes.upvotedBy.map((user) => user._id),
      [reader.user._id],
    )
})

await t.test('an edit of the post, and of the profiles of the people it shows, show on the next read', async (t) => {
  await watched()
  await ok(`/api/posts/like/${postId}`, fan.token)
  await ok(`/api/posts/edit/${postId}`, author.token, { content: 'edited post' })
  for (const view of await watched()) t.equal(view.content, 'edited post')

  await ok('/api/users/edit', author.token, { firstName: 'Renamed', avatarURL: '/avatars/avatar-2.svg' })
  for (const view of await watched()) {
    t.equal(view.firstName, 'Renamed', "the author's new name")
    t.equal(view.avatarURL, '/avatars/avatar-2.svg', "the author's new avatar")
  }

  await ok('/api/users/edit', fan.token, { lastName: 'Renamed' })
  for (const view of await watched()) {
    t.equal(view.likes.likedBy[0]?.lastName, 'Renamed', "a liker's new name")
    t.equal(view.comments[0]?.lastName, 'Renamed', "a commenter's new name")
  }
})

await t.test('a follow and an unfollow change whose posts the feed holds on the next read', async (t) => {
  const other = await signup(api)
  const { post: theirs } = await ok('/api/posts', other.token, { content: 'not followed yet' })
  const feedIds = async () => {
    const ids: string[][] = []
    for (let round = 0; round < 2; round++) {
      const res = await api.as(reader.token, { method: 'GET', url: '/api/feed?limit=20' })
      ids.push(expectOk(t, res, 200, FeedReplySchema).posts.map((p) => p._id))
    }
    return ids
  }
  for (const ids of await feedIds()) t.notOk(ids.includes(theirs?._id ?? ''), 'not in the feed before the follow')
  await ok(`/api/users/follow/${other.user._id}`, reader.token)
  for (const ids of await feedIds()) t.ok(ids.includes(theirs?._id ?? ''), 'in the feed after the follow')
  await ok(`/api/users/unfollow/${other.user._id}`, reader.token)
  for (const ids of await feedIds()) t.notOk(ids.includes(theirs?._id ?? ''), 'gone after the unfollow')
})

await t.test('a deleted post leaves both pages on the next read', async (t) => {
  await watched()
  const res = await api.as(author.token, { method: 'DELETE', url: `/api/posts/${postId}` })
  t.equal(res.statusCode, 201)
  const feed = expectOk(
    t,
    await api.as(reader.token, { method: 'GET', url: '/api/feed?limit=20' }),
    200,
    FeedReplySchema,
  )
  const list = expectOk(
    t,
    await api.as(undefined, { method: 'GET', url: '/api/posts?limit=20' }),
    200,
    PostsReplySchema,
  )
  t.notOk(feed.posts.some((p) => p._id === postId))
  t.notOk(list.posts.some((p) => p._id === postId))
})
