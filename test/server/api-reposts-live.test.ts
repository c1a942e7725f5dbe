import t from 'tap'
import {
  NotificationCreatedEventSchema,
  PostEventSchema,
  PostPinnedEventSchema,
  PostRepostedEventSchema,
} from '../../server/schemas/events.js'
import { checkSchema, signup } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'

/** post.reposted and post.pinned (DECISIONS §10): counts and state on open screens, and the repost for followers' feeds. */
const { api, write, newPost, stream, nextEvent, expectEvent } = await buildLiveApi(t)

await t.test('a repost reaches open screens with its count and the post as a home feed shows it', async (t) => {
  const [author, reposter, follower] = [await signup(api), await signup(api), await signup(api)]
  await write(follower, 'POST', `/api/users/follow/${reposter.user._id}`)
  const post = await newPost(author, 'pass it on')
  const theirs = await stream(t, follower)
  const hers = await stream(t, author)
  await write(reposter, 'POST', `/api/posts/repost/${post._id}`)
  const event = await expectEvent(t, theirs, 'post.reposted', PostRepostedEventSchema)
  t.match(event, { postId: post._id, reposted: true, repostCount: 1 }, 'the count after it')
  t.equal(event.user._id, reposter.user._id, 'by whom')
  t.equal(event.post?.repostedBy?._id, reposter.user._id, 'the post as the feed shows it')
  t.equal(event.post?.repostedAt, event.at, 'at the time of the repost')
  t.strictSame(event.post?.comments, [], 'in its compact form')
  await expectEvent(t, hers, 'post.reposted', PostRepostedEventSchema)
  const notice = await expectEvent(t, hers, 'notification.created', NotificationCreatedEventSchema)
  t.equal(notice.type, 'repost', "the author's notification")

  await write(reposter, 'POST', `/api/posts/unrepost/${post._id}`)
  const undone = await expectEvent(t, theirs, 'post.reposted', PostRepostedEventSchema)
  t.match(undone, { reposted: false, repostCount: 0 }, 'undone')
  t.equal(undone.post, undefined, 'without a post to add')
})

await t.test('a muted reposter is left out of the stream', async (t) => {
  const [author, reposter, reader] = [await signup(api), await signup(api), await signup(api)]
  await write(reader, 'POST', `/api/users/mute/${reposter.user._id}`)
  const post = await newPost(author, 'quietly')
  const mine = await stream(t, reader)
  await write(reposter, 'POST', `/api/posts/repost/${post._id}`)
  await write(author, 'POST', `/api/posts/pin/${post._id}`)
  const next = await nextEvent(mine)
  t.equal(next.event, 'post.pinned', 'the next event is the pin, not the muted repost')
  const data: unknown = JSON.parse(next.data ?? 'null')
  checkSchema(t, PostPinnedEventSchema, data, 'post.pinned data matches its schema')
  t.strictSame(data, { postId: post._id, pinned: true }, 'which post, pinned')
})

await t.test('a new quote reaches streams without the quoted post, which each reader reads as they may', async (t) => {
  const [author, quoter, reader] = [await signup(api), await signup(api), await signup(api)]
  await write(reader, 'POST', `/api/users/block/${author.user._id}`)
  const original = await newPost(author, 'hidden from the reader')
  const theirs = await stream(t, reader)
  await write(quoter, 'POST', '/api/posts', { content: 'quoting it', quoteOf: original._id })
  const { post } = await expectEvent(t, theirs, 'post.created', PostEventSchema)
  t.equal(post.quoteOf, original._id, 'the event names what it quotes')
  t.equal(post.quote, undefined, 'but carries no quoted post, which this reader may not see')
})
