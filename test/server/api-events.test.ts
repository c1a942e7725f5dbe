import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import t, { type Test } from 'tap'
import {
  BookmarkEventSchema,
  CommentAddedEventSchema,
  CommentDeletedEventSchema,
  CommentUpdatedEventSchema,
  CommentVotedEventSchema,
  FollowEventSchema,
  PostDeletedEventSchema,
  PostEventSchema,
  PostLikedEventSchema,
  PostUpdatedEventSchema,
  UserUpdatedEventSchema,
} from '../../server/schemas/events.js'
import type { Post } from '../../server/schemas/posts.js'
import { expectError, expectNoSecrets, signup, snapshotApp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import type { SseClient } from '../helpers/sse.js'

/** Live updates (docs/api-contract.md §7) through the real app: writes over app.inject, streams over HTTP on 127.0.0.1. */
const { api, write, stream, nextEvent, expectEvent, ...live } = await buildLiveApi(t)

const [author, watcher, other] = [await signup(api), await signup(api), await signup(api)]

const newPost = (who = author, content = 'an event post') => live.newPost(who, content)
/** A GET on what is on disk now: a second app over a copy of the data directory. */
const onDisk = async (t: Test, url: string) => (await snapshotApp(t, api)).app.inject({ method: 'GET', url })

await t.test('POST /api/events/ticket needs a token; GET /api/events needs a ticket', async (t) => {
  expectError(
    t,
    await api.app.inject({ method: 'POST', url: '/api/events/ticket' }),
    401,
    'The token is invalid. Unauthorized access error.',
  )
  expectError(
    t,
    await api.app.inject({ method: 'GET', url: '/api/events?ticket=nope' }),
    401,
    'The token is invalid. Unauthorized access error.',
  )
  const client = await stream(t, watcher)
  t.match(String(client.headers['content-type']), /^text\/event-stream/)
  t.equal(client.headers['cache-control'], 'no-store')
})

await t.test('post.created, with the post, once it is on disk', async (t) => {
  const client = await stream(t, watcher)
  const post = await newPost(author, 'created live')
  const data = await expectEvent(t, client, 'post.created', PostEventSchema)
  t.match(data.post, { _id: post._id, content: 'created live', username: author.username })
  t.equal((await onDisk(t, `/api/posts/${post._id}`)).statusCode, 200, 'the post was on disk before the event was seen')
})

await t.test('post.updated', async (t) => {
  const post = await newPost()
  const client = await stream(t, watcher)
  await write(author, 'POST', `/api/posts/edit/${post._id}`, { content: 'edited live' })
  const data = await expectEvent(t, client, 'post.updated', PostUpdatedEventSchema)
  t.match(data, { postId: post._id, content: 'edited live', mediaUrl: '', type: '' })
})

await t.test('post.liked carries the liker and the new count, for a like and for taking it back', async (t) => {
  const post = await newPost()
  const client = await stream(t, watcher)
  await write(other, 'POST', `/api/posts/like/${post._id}`)
  const liked = await expectEvent(t, client, 'post.liked', PostLikedEventSchema)
  t.match(liked, {
    postId: post._id,
    liked: true,
    likeCount: 1,
    user: { _id: other.user._id, username: other.username },
  })
  await write(other, 'POST', `/api/posts/dislike/${post._id}`)
  const unliked = await expectEvent(t, client, 'post.liked', PostLikedEventSchema)
  t.match(unliked, { postId: post._id, liked: false, likeCount: 0, user: { username: other.username } })
})

await t.test('post.deleted, with the post id and when it was made', async (t) => {
  const post = await newPost()
  const client = await stream(t, watcher)
  await write(author, 'DELETE', `/api/posts/${post._id}`)
  t.strictSame(await expectEvent(t, client, 'post.deleted', PostDeletedEventSchema), {
    postId: post._id,
    createdAt: post.createdAt,
  })
  t.equal(
    (await onDisk(t, `/api/posts/${post._id}`)).statusCode,
    404,
    'the post was gone from disk before the event was seen',
  )
})

/** A post by the author with one comment by `other`. */
async function thread() {
  const post = await newPost()
  const added = (
    (await write(other, 'POST', `/api/comments/add/${post._id}`, { text: 'live comment' })).json() as { post: Post }
  ).post
  return { postId: post._id, commentId: added.comments[0]?._id as string }
}

await t.test('comment.added carries the comment, not the post', async (t) => {
  const post = await newPost()
  const client = await stream(t, watcher)
  const added = (
    (await write(other, 'POST', `/api/comments/add/${post._id}`, { text: 'live comment' })).json() as { post: Post }
  ).post
  const data = await expectEvent(t, client, 'comment.added', CommentAddedEventSchema)
  t.strictSame(Object.keys(data).sort(), ['comment', 'postId'])
  t.match(data, {
    postId: post._id,
    comment: { _id: added.comments[0]?._id, text: 'live comment', username: other.username },
  })
})

await t.test('comment.updated carries the edited comment', async (t) => {
  const { postId, commentId } = await thread()
  const client = await stream(t, watcher)
  await write(other, 'POST', `/api/comments/edit/${postId}/${commentId}`, { text: 'edited comment' })
  const data = await expectEvent(t, client, 'comment.updated', CommentUpdatedEventSchema)
  t.match(data, { postId, commentId, text: 'edited comment' })
})

await t.test('comment.voted carries the voter and the direction', async (t) => {
  const { postId, commentId } = await thread()
  const client = await stream(t, watcher)
  await write(watcher, 'POST', `/api/comments/upvote/${postId}/${commentId}`)
  const up = await expectEvent(t, client, 'comment.voted', CommentVotedEventSchema)
  t.match(up, { postId, commentId, up: true, user: { username: watcher.username } })
  await write(watcher, 'POST', `/api/comments/downvote/${postId}/${commentId}`)
  const down = await expectEvent(t, client, 'comment.voted', CommentVotedEventSchema)
  t.match(down, { postId, commentId, up: false, user: { username: watcher.username } })
})

await t.test('comment.deleted carries the ids', async (t) => {
  const { postId, commentId } = await thread()
  const client = await stream(t, watcher)
  await write(author, 'POST', `/api/comments/delete/${postId}/${commentId}`)
  t.strictSame(await expectEvent(t, client, 'comment.deleted', CommentDeletedEventSchema), { postId, commentId })
})

await t.test('user.followed carries who follows whom, as summaries', async (t) => {
  const client = await stream(t, watcher)
  await write(author, 'POST', `/api/users/follow/${other.user._id}`)
  t.teardown(() => write(author, 'POST', `/api/users/unfollow/${other.user._id}`))
  const data = await expectEvent(t, client, 'user.followed', FollowEventSchema)
  t.match(data, { user: { _id: author.user._id }, followUser: { _id: other.user._id } })
  t.strictSame(
    Object.keys(data.user).sort(),
    ['_id', 'avatarURL', 'firstName', 'lastName', 'username'],
    'no lists, no email',
  )
})

await t.test('user.unfollowed carries both public records', async (t) => {
  await write(other, 'POST', `/api/users/follow/${author.user._id}`)
  const client = await stream(t, watcher)
  await write(other, 'POST', `/api/users/unfollow/${author.user._id}`)
  const data = await expectEvent(t, client, 'user.unfollowed', FollowEventSchema)
  t.match(data, { user: { _id: other.user._id }, followUser: { _id: author.user._id } })
  t.notOk('email' in data.user || 'email' in data.followUser, 'events carry no email')
})

await t.test('user.updated carries the public record', async (t) => {
  const client = await stream(t, watcher)
  await write(other, 'POST', '/api/users/edit', { bio: 'live bio' })
  const { user } = await expectEvent(t, client, 'user.updated', UserUpdatedEventSchema)
  t.match(user, { _id: other.user._id, bio: 'live bio' })
  t.notOk('email' in user || 'bookmarks' in user || 'followers' in user, 'no email, no lists')
  t.equal(
    (await onDisk(t, `/api/users/${other.username}`)).json<{ user: { bio: string } }>().user.bio,
    'live bio',
    'on disk before the event was seen',
  )
})

/** After a private event: the other user's next event must be a public marker, not the bookmark. */
async function expectNothingPrivate(t: Test, theirs: SseClient) {
  const marker = await newPost(author, 'after a bookmark')
  t.equal(
    (await expectEvent(t, theirs, 'post.created', PostEventSchema)).post._id,
    marker._id,
    'the other user saw no bookmark event',
  )
  t.notMatch(theirs.text, /bookmark\./, 'nothing about bookmarks on their stream')
}

await t.test("bookmark.added reaches only the owner's streams", async (t) => {
  const post = await newPost()
  const mine = await stream(t, watcher)
  const theirs = await stream(t, other)
  await write(watcher, 'POST', `/api/users/bookmark/${post._id}`)
  t.teardown(() => write(watcher, 'POST', `/api/users/remove-bookmark/${post._id}`))
  t.strictSame(await expectEvent(t, mine, 'bookmark.added', BookmarkEventSchema), { postId: post._id })
  await expectNothingPrivate(t, theirs)
})

await t.test("bookmark.removed reaches only the owner's streams", async (t) => {
  const post = await newPost()
  await write(watcher, 'POST', `/api/users/bookmark/${post._id}`)
  const mine = await stream(t, watcher)
  const theirs = await stream(t, other)
  await write(watcher, 'POST', `/api/users/remove-bookmark/${post._id}`)
  t.strictSame(await expectEvent(t, mine, 'bookmark.removed', BookmarkEventSchema), { postId: post._id })
  await expectNothingPrivate(t, theirs)
})

await t.test('a write that fails publishes nothing', async (t) => {
  const post = await newPost()
  const client = await stream(t, watcher)
  t.equal((await write(other, 'POST', `/api/posts/like/${post._id}`)).statusCode, 201)
  const failures = [
    await write(other, 'POST', `/api/posts/like/${post._id}`),
    await write(other, 'POST', `/api/posts/edit/${post._id}`, { content: 'not mine' }),
    await write(other, 'DELETE', `/api/posts/${post._id}`),
    await write(other, 'POST', `/api/posts/dislike/${crypto.randomUUID()}`),
    await write(other, 'POST', `/api/users/follow/${other.user._id}`),
    await write(other, 'POST', '/api/users/edit', { username: 'renamed_user' }),
    await write(other, 'POST', `/api/comments/add/${post._id}`, { text: ' ' }),
    await write(other, 'POST', `/api/users/remove-bookmark/${post._id}`),
  ]
  t.ok(
    failures.every((res) => res.statusCode >= 400),
    'each of these writes fails',
  )
  const marker = await newPost(author, 'the marker')
  t.equal((await expectEvent(t, client, 'post.liked', PostLikedEventSchema)).postId, post._id, 'the successful like')
  t.equal(
    (await expectEvent(t, client, 'post.created', PostEventSchema)).post._id,
    marker._id,
    'then the marker: no event between',
  )
})

const onlyEmbedded = api.schema === undefined ? false : "a failing disk is the embedded store's case"

await t.test('a write the disk refuses publishes nothing', { skip: onlyEmbedded }, async (t) => {
  const post = await newPost()
  const client = await stream(t, watcher)
  // As in api-errors: a directory in place of the commit point's temporary file fails the next flush.
  const blocker = path.join(api.dataDir, `db.json.${process.pid}.tmp`)
  await mkdir(blocker)
  const refused = [
    await write(author, 'POST', '/api/posts', { content: 'never stored' }),
    await write(other, 'POST', `/api/posts/like/${post._id}`),
    await write(other, 'POST', `/api/comments/add/${post._id}`, { text: 'never stored' }),
    await write(other, 'POST', '/api/users/edit', { bio: 'never stored' }),
  ]
  await rm(blocker, { recursive: true })
  t.strictSame(
    refused.map((res) => res.statusCode),
    [500, 500, 500, 500],
    'each write fails on disk',
  )
  const marker = await newPost(author, 'after the disk recovered')
  t.equal(
    (await expectEvent(t, client, 'post.created', PostEventSchema)).post._id,
    marker._id,
    'the first event is the marker',
  )
  t.notMatch(client.text, /never stored/, 'nothing of the refused writes reached the stream')
})

await t.test("two clients: one user's write reaches the other's open stream, ids rising, no secrets", async (t) => {
  const a = await stream(t, author)
  const b = await stream(t, watcher)
  const fromA = await newPost(author, 'from A to B')
  const seenByB = await nextEvent(b)
  t.equal(seenByB.event, 'post.created')
  t.equal((JSON.parse(seenByB.data ?? '{}') as { post: Post }).post._id, fromA._id, "B sees A's post")
  t.equal((await expectEvent(t, a, 'post.created', PostEventSchema)).post._id, fromA._id, 'A sees it too')

  await write(watcher, 'POST', `/api/comments/add/${fromA._id}`, { text: 'from B to A' })
  const seenByA = await nextEvent(a)
  t.equal(seenByA.event, 'comment.added', "A sees B's comment")
  t.ok(Number(seenByA.id) > Number(seenByB.id), 'ids rise')
  t.equal((await nextEvent(b)).id, seenByA.id, 'both streams share the ids')
  expectNoSecrets(t, a.text, "A's stream")
  expectNoSecrets(t, b.text, "B's stream")
})
