import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import type { Comment } from '../../client/api/types.js'
import { postCache } from '../../client/state/post-cache.js'
import { makeComment, ok, resetAll, summary, until } from './helpers.js'
import { LATER, liveApp, samples, type Routes } from './live-app.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

let { me, theo, p1 } = samples()
let first = makeComment('First from Maya')
t.beforeEach(() => {
  ;({ me, theo, p1 } = samples())
  first = makeComment('First from Maya')
})

/** The page of a post with `comments`, its comments open. */
async function openPost(t: Parameters<typeof liveApp>[0], comments: Comment[], routes: Routes = {}) {
  const post = { ...p1, comments }
  const live = await liveApp(t, me, '/post-detail/p1', {
    'GET /api/posts/p1': () => ok({ post }),
    'GET /api/comments/p1': () => ok({ comments: structuredClone(comments), nextCursor: null }),
    ...routes,
  })
  const region = await screen.findByRole('region', { name: 'Comments' })
  await until(() => live.api.calls.some((c) => c.path === '/api/comments/p1') && !within(region).queryByRole('status'))
  return { ...live, region }
}

const comments = () => postCache.byId.p1?.comments ?? []

await t.test('comment.added, .updated and .deleted change the comments of an open post', async (t) => {
  const { send, region } = await openPost(t, [])
  send('comment.added', { postId: 'p1', comment: first })
  t.ok(await within(region).findByText('First from Maya'))
  t.ok(screen.getByRole('button', { name: 'Comments, 1 comment' }))
  send('comment.updated', { postId: 'p1', commentId: first._id, text: 'Edited by Maya', updatedAt: LATER })
  t.ok(await within(region).findByText('Edited by Maya'))
  t.match(comments()[0], { text: 'Edited by Maya', updatedAt: LATER, createdAt: first.createdAt })
  send('comment.deleted', { postId: 'p1', commentId: first._id })
  await until(() => within(region).queryByText('Edited by Maya') === null)
  t.ok(screen.getByRole('button', { name: 'Comments, 0 comments' }))
})

await t.test('my own comment, answered by the server and then announced, shows once', async (t) => {
  const mine = makeComment('Mine', { username: 'guest', firstName: 'Guest', lastName: 'User' })
  const { send, region } = await openPost(t, [], {
    'POST /api/comments/add/p1': () => ({ status: 201, body: { post: { ...p1, comments: [mine], commentCount: 1 } } }),
  })
  fireEvent.change(within(region).getByPlaceholderText('Post your reply'), { target: { value: 'Mine' } })
  fireEvent.click(within(region).getByRole('button', { name: 'Reply' }))
  await within(region).findByText('Mine')
  send('comment.added', { postId: 'p1', comment: mine })
  t.equal(within(region).getAllByText('Mine').length, 1)
  t.ok(screen.getByRole('button', { name: 'Comments, 1 comment' }))
})

await t.test("comment.voted: a vote one way takes back the same person's vote the other way", async (t) => {
  const { send } = await openPost(t, [first])
  const vote = (up: boolean) =>
    send('comment.voted', { postId: 'p1', commentId: first._id, user: summary(theo), up, updatedAt: LATER })
  vote(true)
  t.same(comments()[0]?.votes, { upvotedBy: [summary(theo)], downvotedBy: [] })
  t.equal(comments()[0]?.updatedAt, LATER)
  vote(true)
  t.same(comments()[0]?.votes.upvotedBy, [summary(theo)], 'the same vote twice counts once')
  vote(false)
  t.same(comments()[0]?.votes, { upvotedBy: [], downvotedBy: [summary(theo)] })
  vote(true)
  t.same(comments()[0]?.votes, { upvotedBy: [summary(theo)], downvotedBy: [] })
})

await t.test('an edit or a vote on a comment the tab does not hold changes nothing', async (t) => {
  const { send, region } = await openPost(t, [first])
  send('comment.updated', { postId: 'p1', commentId: 'c-unseen', text: 'Unseen', updatedAt: LATER })
  send('comment.voted', { postId: 'p1', commentId: 'c-unseen', user: summary(theo), up: true, updatedAt: LATER })
  send('comment.deleted', { postId: 'p1', commentId: 'c-unseen' })
  t.same(comments(), [first], 'the comments are as they were')
  t.equal(within(region).queryByText('Unseen'), null)
})

await t.test('live replies keep the tree: a reply to a reply lands under it, and a deleted subtree goes', async (t) => {
  const root = makeComment('The root', { _id: 'c1', username: 'maya' })
  const { send, region } = await openPost(t, [root])
  const answer = makeComment('An answer', { _id: 'c2', username: 'theo', replyTo: 'c1', createdAt: LATER })
  send('comment.added', { postId: 'p1', comment: answer })
  const toRoot = await within(region).findByRole('list', { name: 'Replies to @maya' })
  t.ok(within(toRoot).getByText('An answer'))
  const deeper = makeComment('Deeper', { _id: 'c3', username: 'maya', replyTo: 'c2', createdAt: LATER })
  send('comment.added', { postId: 'p1', comment: deeper })
  const toAnswer = await within(region).findByRole('list', { name: 'Replies to @theo' })
  t.ok(within(toAnswer).getByText('Deeper'), 'under the reply it answers')
  // Deleting a comment deletes its subtree: the server tells each removal, the deepest first.
  send('comment.deleted', { postId: 'p1', commentId: 'c3' })
  send('comment.deleted', { postId: 'p1', commentId: 'c2' })
  await until(() => within(region).queryByText('An answer') === null)
  t.equal(within(region).queryByText('Deeper'), null)
  t.equal(within(region).queryByRole('list', { name: 'Replies to @maya' }), null, 'the root stands alone again')
  t.ok(within(region).getByText('The root'))
})
