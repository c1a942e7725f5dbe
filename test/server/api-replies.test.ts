import t from 'tap'
import { CommentAddedEventSchema, CommentDeletedEventSchema } from '../../server/schemas/events.js'
import { CommentsReplySchema, CommentWriteReplySchema, type Comment, type Post } from '../../server/schemas/posts.js'
import { expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'

/** Replies to comments (DECISIONS §10, §11, §17): one flat list, each comment with `replyTo`, threads as trees. */
const { api, write, newPost, stream, expectEvent } = await buildLiveApi(t)

const add = (who: SignedUp, postId: string, payload: object) =>
  api.as(who.token, { method: 'POST', url: `/api/comments/add/${postId}`, payload })
/** The comment just made: the last of the answer's `comments`. */
const newest = (answer: Awaited<ReturnType<typeof add>> | { comments?: Comment[] }): Comment => {
  const { comments = [] } = 'json' in answer ? (answer.json() as { comments: Comment[] }) : answer
  return comments[comments.length - 1] as Comment
}
const listOf = async (postId: string) =>
  expectOk(t, await api.as(undefined, { method: 'GET', url: `/api/comments/${postId}` }), 200, CommentsReplySchema)
    .comments
const notificationsOf = async (who: SignedUp) =>
  (
    (await api.as(who.token, { method: 'GET', url: '/api/notifications' })).json() as {
      notifications: { type: string; comment?: { _id: string } }[]
    }
  ).notifications

await t.test('every comment carries replyTo: null on a root, its parent on a reply, in one flat list', async (t) => {
  const [author, alice, bob] = [await signup(api), await signup(api), await signup(api)]
  const post = await newPost(author, 'a thread')
  const root = newest(expectOk(t, await add(alice, post._id, { text: 'root' }), 201, CommentWriteReplySchema))
  t.equal(root.replyTo, null)
  const reply = newest(
    expectOk(t, await add(bob, post._id, { text: 'reply', replyTo: root._id }), 201, CommentWriteReplySchema),
  )
  t.equal(reply.replyTo, root._id)
  const nested = newest(await add(alice, post._id, { text: 'reply to the reply', replyTo: reply._id }))
  t.equal(nested.replyTo, reply._id, 'a reply to a reply keeps its parent')
  const explicitNull = newest(await add(bob, post._id, { text: 'another root', replyTo: null }))
  t.equal(explicitNull.replyTo, null, 'null is a root')
  t.strictSame(
    (await listOf(post._id)).map((c) => [c.text, c.replyTo]),
    [
      ['root', null],
      ['reply', root._id],
      ['reply to the reply', reply._id],
      ['another root', null],
    ],
  )
  const read = (await api.as(undefined, { method: 'GET', url: `/api/posts/${post._id}` })).json() as { post: Post }
  t.equal(read.post.comments[1]?.replyTo, root._id, "the post's comments carry it too")
})

await t.test(
  'replyTo naming no comment of this post is a 404 "Comment not found", and no comment is made',
  async (t) => {
    const [author, alice] = [await signup(api), await signup(api)]
    const post = await newPost(author, 'here')
    const elsewhere = await newPost(author, 'elsewhere')
    const there = newest(await add(alice, elsewhere._id, { text: 'on the other post' }))
    expectError(
      t,
      await add(alice, post._id, { text: 'x', replyTo: there._id }),
      404,
      'Comment not found',
      'another post',
    )
    expectError(
      t,
      await add(alice, post._id, { text: 'x', replyTo: '00000000-0000-4000-8000-000000000000' }),
      404,
      'Comment not found',
      'unknown',
    )
    t.equal((await add(alice, post._id, { text: 'x', replyTo: 'not an id' })).statusCode, 400, 'not an id')
    t.equal((await add(alice, post._id, { text: 'x', replyTo: 7 })).statusCode, 400, 'no coercion')
    t.strictSame(await listOf(post._id), [], 'nothing made')
  },
)

await t.test('the replied-to author is told (reply), never themselves, and not across a block', async (t) => {
  const [author, alice, bob] = [await signup(api), await signup(api), await signup(api)]
  const post = await newPost(author, 'talk')
  const root = newest(await add(alice, post._id, { text: 'mine' }))
  const reply = newest(await add(bob, post._id, { text: 'an answer', replyTo: root._id }))
  const hers = await notificationsOf(alice)
  t.strictSame(
    hers.map((n) => [n.type, n.comment?._id]),
    [['reply', reply._id]],
  )
  t.strictSame(
    (await notificationsOf(author)).map((n) => n.type).sort(),
    ['comment', 'comment'],
    "the post's author hears of each comment",
  )
  await add(alice, post._id, { text: 'answering myself', replyTo: root._id })
  t.equal((await notificationsOf(alice)).length, 1, 'no notification to yourself')
  const own = newest(await add(author, post._id, { text: "the author's own" }))
  await add(bob, post._id, { text: 'to the author', replyTo: own._id })
  t.strictSame(
    (await notificationsOf(author)).map((n) => n.type),
    ['reply', 'comment', 'comment', 'comment'],
    "a reply to the post author's comment tells them once, as a reply",
  )
  await api.as(alice.token, { method: 'POST', url: `/api/users/block/${bob.user._id}` })
  expectError(
    t,
    await add(bob, post._id, { text: 'blocked', replyTo: root._id }),
    403,
    'You cannot interact with this user.',
  )
})

await t.test('deleting a comment deletes its replies: counts drop, each is told live, notifications go', async (t) => {
  const [author, alice, bob, carol] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  const post = await newPost(author, 'going')
  const root = newest(await add(alice, post._id, { text: 'root' }))
  const replies = [
    newest(await add(bob, post._id, { text: 'one', replyTo: root._id })),
    newest(await add(carol, post._id, { text: 'two', replyTo: root._id })),
  ]
  const kept = newest(await add(bob, post._id, { text: 'kept' }))
  t.equal((await notificationsOf(alice)).length, 2, 'two replies told')
  const watching = await stream(t, carol)
  const res = await write(alice, 'DELETE', `/api/comments/delete/${post._id}/${root._id}`)
  t.equal(res.statusCode, 201)
  t.equal((res.json() as { post: Post }).post.commentCount, 1, 'the count drops by three')
  const gone = [
    await expectEvent(t, watching, 'comment.deleted', CommentDeletedEventSchema),
    await expectEvent(t, watching, 'comment.deleted', CommentDeletedEventSchema),
    await expectEvent(t, watching, 'comment.deleted', CommentDeletedEventSchema),
  ]
  t.strictSame(gone.map((e) => e.commentId).sort(), [root._id, ...replies.map((r) => r._id)].sort())
  t.strictSame(
    (await listOf(post._id)).map((c) => c._id),
    [kept._id],
  )
  t.equal((await notificationsOf(alice)).length, 0, 'the reply notifications are taken back')
  t.strictSame(
    (await notificationsOf(author)).map((n) => n.comment?._id),
    [kept._id],
    "and the post author's",
  )
  // Deleting a reply alone leaves its root.
  const root2 = newest(await add(alice, post._id, { text: 'root two' }))
  const reply2 = newest(await add(bob, post._id, { text: 'reply two', replyTo: root2._id }))
  await write(bob, 'DELETE', `/api/comments/delete/${post._id}/${reply2._id}`)
  t.strictSame(
    (await listOf(post._id)).map((c) => c._id),
    [kept._id, root2._id],
  )
})

await t.test('comment.added carries replyTo', async (t) => {
  const [author, alice] = [await signup(api), await signup(api)]
  const post = await newPost(author, 'live')
  const root = newest(await add(alice, post._id, { text: 'root' }))
  const watching = await stream(t, author)
  await add(alice, post._id, { text: 'reply', replyTo: root._id })
  const added = await expectEvent(t, watching, 'comment.added', CommentAddedEventSchema)
  t.equal(added.comment.replyTo, root._id)
})

await t.test('a reply at any depth tells the author of the comment it answers', async (t) => {
  const [author, alice, bob, carol] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  const post = await newPost(author, 'deep')
  const root = newest(await add(alice, post._id, { text: 'root' }))
  const second = newest(await add(bob, post._id, { text: 'second', replyTo: root._id }))
  const third = newest(await add(carol, post._id, { text: 'third', replyTo: second._id }))
  t.equal(third.replyTo, second._id)
  t.strictSame(
    (await notificationsOf(bob)).map((n) => [n.type, n.comment?._id]),
    [['reply', third._id]],
    'the parent is told, not the root',
  )
  t.strictSame(
    (await notificationsOf(alice)).map((n) => [n.type, n.comment?._id]),
    [['reply', second._id]],
    "the root's author hears only of the reply to them",
  )
})

await t.test('deleting a comment deletes its whole subtree, at any depth, and nothing beside it', async (t) => {
  const [author, alice, bob, reader] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  const post = await newPost(author, 'a tree')
  const root = newest(await add(alice, post._id, { text: 'root' }))
  const a = newest(await add(bob, post._id, { text: 'a', replyTo: root._id }))
  const b = newest(await add(alice, post._id, { text: 'b', replyTo: a._id }))
  const c = newest(await add(bob, post._id, { text: 'c', replyTo: b._id }))
  const sibling = newest(await add(bob, post._id, { text: 'sibling', replyTo: root._id }))
  const watching = await stream(t, reader)
  const res = await write(bob, 'DELETE', `/api/comments/delete/${post._id}/${a._id}`)
  t.equal(res.statusCode, 201)
  t.equal((res.json() as { post: Post }).post.commentCount, 2, 'three went')
  const gone = [
    await expectEvent(t, watching, 'comment.deleted', CommentDeletedEventSchema),
    await expectEvent(t, watching, 'comment.deleted', CommentDeletedEventSchema),
    await expectEvent(t, watching, 'comment.deleted', CommentDeletedEventSchema),
  ]
  t.strictSame(
    gone.map((e) => e.commentId),
    [c._id, b._id, a._id],
    'each told, the deepest first',
  )
  t.strictSame(
    (await listOf(post._id)).map((each) => each._id),
    [root._id, sibling._id],
  )
  t.strictSame(
    (await notificationsOf(bob)).map((n) => n.comment?._id),
    [],
    'the reply to a deleted comment is no longer told',
  )
})

await t.test("deleting an account deletes others' replies under its comments, at any depth", async (t) => {
  const [author, alice, bob, carol] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  const post = await newPost(author, 'leaving')
  const root = newest(await add(author, post._id, { text: 'root' }))
  const hers = newest(await add(alice, post._id, { text: 'hers', replyTo: root._id }))
  const deep = newest(await add(bob, post._id, { text: 'deep', replyTo: hers._id }))
  newest(await add(carol, post._id, { text: 'deeper', replyTo: deep._id }))
  const kept = newest(await add(bob, post._id, { text: 'kept', replyTo: root._id }))
  const res = await api.as(alice.token, {
    method: 'DELETE',
    url: '/api/account',
    payload: { password: alice.password },
  })
  t.equal(res.statusCode, 200)
  t.strictSame(
    (await listOf(post._id)).map((each) => each._id),
    [root._id, kept._id],
  )
  const read = (await api.as(undefined, { method: 'GET', url: `/api/posts/${post._id}` })).json() as { post: Post }
  t.equal(read.post.commentCount, 2)
})
