import t from 'tap'
import type { SignedUp } from '../helpers/api.js'
import { eventually, type Instance } from '../helpers/federation-instances.js'
import { followedPost, handleOf } from '../helpers/federation-pair.js'
import { call } from '../helpers/moderation.js'

/**
 * Comments as replies between two Chirp instances over https (DECISIONS §14), on whichever store the suite
 * runs: Bob of B follows Ann of A; his comment on her post reaches A as his comment there (counted, and
 * she hears of it), her reply to it reaches B as a reply to his, her own comment on her post reaches B,
 * and edits and deletions follow, only from the comment's author.
 */

interface ShownComment {
  _id: string
  text: string
  username: string
  replyTo?: string | null
}
interface ShownPost {
  commentCount: number
}

const handle = handleOf

async function commentsOn(instance: Instance, person: SignedUp, postId: string) {
  const res = await call(instance, person.token, 'GET', `/api/comments/${postId}`)
  return res.statusCode === 200 ? res.json<{ comments: ShownComment[] }>().comments : []
}

async function comment(instance: Instance, person: SignedUp, postId: string, text: string, replyTo?: string) {
  const res = await call(instance, person.token, 'POST', `/api/comments/add/${postId}`, {
    commentData: { text, ...(replyTo ? { replyTo } : {}) },
  })
  if (res.statusCode >= 300) throw new Error(`${res.statusCode} ${res.body}`)
  const written = res.json<{ comments: ShownComment[] }>().comments.findLast((shown) => shown.text === text)
  if (!written) throw new Error(`no comment in ${res.body}`)
  return written
}

await t.test('comments go both ways as replies', async (t) => {
  const { a, b, ann, bob, post, there } = await followedPost(t, 'What do you think?')

  // Bob's comment on the remote post reaches A as his comment on Ann's post.
  const bobs = await comment(b, bob, there._id, 'I like it')
  const onA = await eventually(
    () => commentsOn(a, ann, post._id),
    (comments) => comments.length === 1,
  )
  t.match(onA, [{ text: 'I like it', username: handle(bob, b) }], 'Bob’s comment is on Ann’s post on A')
  const counted = await call(a, ann.token, 'GET', `/api/posts/${post._id}`)
  t.equal(counted.json<{ post: ShownPost }>().post.commentCount, 1, 'and counted')
  const told = await call(a, ann.token, 'GET', '/api/notifications')
  t.match(
    told.json<{ notifications: { type: string }[] }>().notifications,
    [{ type: 'comment' }],
    'Ann hears of it as of a local comment',
  )

  // Ann's reply to Bob's comment reaches B as a reply to his.
  await comment(a, ann, post._id, 'Thank you!', onA[0]?._id)
  const onB = await eventually(
    () => commentsOn(b, bob, there._id),
    (comments) => comments.length === 2,
  )
  t.match(
    onB.find((shown) => shown.text === 'Thank you!'),
    { username: handle(ann, a), replyTo: bobs._id },
    'her reply answers his comment on B',
  )

  // Ann's own comment on her post reaches her follower on B.
  await comment(a, ann, post._id, 'One more thing')
  const three = await eventually(
    () => commentsOn(b, bob, there._id),
    (comments) => comments.length === 3,
  )
  t.ok(
    three.some((shown) => shown.text === 'One more thing' && shown.username === handle(ann, a)),
    'her comment on her own post reaches B',
  )

  // Bob's edit and deletion follow his comment to A.
  const edited = await call(b, bob.token, 'POST', `/api/comments/edit/${there._id}/${bobs._id}`, {
    commentData: { text: 'I love it' },
  })
  t.ok(edited.statusCode < 300, 'edited on B')
  const after = await eventually(
    () => commentsOn(a, ann, post._id),
    (comments) => comments.some((shown) => shown.text === 'I love it'),
  )
  t.ok(
    after.some((shown) => shown.text === 'I love it'),
    'the edit reached A',
  )
  const removed = await call(b, bob.token, 'DELETE', `/api/comments/delete/${there._id}/${bobs._id}`)
  t.ok(removed.statusCode < 300, 'deleted on B')
  const left = await eventually(
    () => commentsOn(a, ann, post._id),
    (comments) => !comments.some((shown) => shown.username === handle(bob, b)),
  )
  t.notOk(
    left.some((shown) => shown.username === handle(bob, b)),
    'the deletion reached A',
  )
})
