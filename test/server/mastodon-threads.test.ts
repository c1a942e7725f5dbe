import { Value } from '@sinclair/typebox/value'
import t, { type Test } from 'tap'
import { PollEntitySchema, StatusSchema, type Status } from '../../server/mastodon/status-schemas.js'
import { pollMessages } from '../../server/mastodon/poll-routes.js'
import { replyMessages } from '../../server/mastodon/status-routes.js'
import { statusIdOf, statusKeyOf } from '../../server/services/status-ids.js'
import { bearer, mastodonClient, passwordToken, type MastodonPerson } from '../helpers/mastodon.js'

/**
 * Threads of the Mastodon client API (DECISIONS §13): Chirp's comments as replies (their ids, reads,
 * context and marks), who reblogged a status, and polls, each through the services Chirp's own API uses,
 * with their refusals. On whichever store runs.
 */
const { api, client, person, call, json } = await mastodonClient(t)
type Person = MastodonPerson
type Context = { ancestors: Status[]; descendants: Status[] }

const post = async (who: Person, payload: Record<string, unknown>) => {
  const status = await json<Status>('POST', '/api/v1/statuses', who, payload)
  if (!Value.Check(StatusSchema, status)) throw new Error(`not a Status: ${JSON.stringify(status)}`)
  return status
}
const ids = (statuses: Status[]) => statuses.map((status) => status.id)
const commentsOf = async (status: Status, who: Person) => {
  const postId = statusKeyOf(status.id)?.postId ?? ''
  const res = await api.as(who.token, { method: 'GET', url: `/api/comments/${postId}` })
  return res.json<{ comments: { _id: string; text: string; replyTo: string | null }[] }>().comments
}
const notFound = (t: Test, res: { statusCode: number; json: () => unknown }, what: string) => {
  t.equal(res.statusCode, 404, what)
  t.same(res.json(), { error: 'Record not found' }, what)
}

const alice = await person()
const bob = await person()
const carol = await person()
await api.as(bob.token, { method: 'POST', url: `/api/users/follow/${alice.user._id}` })

await t.test("a comment's status id holds its time, post and comment, and is no post's or repost's", async (t) => {
  const postId = '0b8f9a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b'
  for (const commentId of [
    'f0e1d2c3-b4a5-4697-8876-a5b4c3d2e1f0',
    'f0e1d2c3-b4a5-4697-9876-a5b4c3d2e1f0',
    'f0e1d2c3-b4a5-4697-a876-a5b4c3d2e1f0',
    'f0e1d2c3-b4a5-4697-b876-a5b4c3d2e1f0',
  ]) {
    const id = statusIdOf({ at: '2026-01-02T00:00:00.000Z', postId, commentId })
    t.equal(id.length, 76, 'the length of every status id')
    t.same(statusKeyOf(id), { at: '2026-01-02T00:00:00.000Z', postId, commentId }, commentId)
    t.same(statusKeyOf(statusIdOf({ at: '2026-01-02T00:00:00.000Z', postId, by: commentId })), {
      at: '2026-01-02T00:00:00.000Z',
      postId,
      by: commentId,
    })
  }
  const early = statusIdOf({
    at: '2026-01-01T00:00:00.000Z',
    postId,
    commentId: 'f0e1d2c3-b4a5-4697-8876-a5b4c3d2e1f0',
  })
  const late = statusIdOf({ at: '2026-01-01T00:00:00.001Z', postId })
  t.ok(early < late, 'comments sort by time among posts')
})

await t.test('in_reply_to_id writes comments; each reads as a status answering what it answers', async (t) => {
  const root = await post(alice, { status: 'a post to answer' })
  const first = await post(bob, { status: 'first #Answer', in_reply_to_id: root.id, visibility: 'public' })
  t.match(first, {
    in_reply_to_id: root.id,
    in_reply_to_account_id: alice.user._id,
    account: { id: bob.user._id },
    visibility: 'public',
    tags: [{ name: 'answer' }],
    favourited: false,
  })
  t.ok(statusKeyOf(first.id)?.commentId, "a comment's id")
  const second = await post(alice, { status: 'answering bob', in_reply_to_id: first.id })
  t.match(second, { in_reply_to_id: first.id, in_reply_to_account_id: bob.user._id })
  t.ok(first.id < second.id, 'later, greater')
  const chirp = await commentsOf(root, alice)
  t.same(
    chirp.map((comment) => [comment.text, comment.replyTo]),
    [
      ['first #Answer', null],
      ['answering bob', statusKeyOf(first.id)?.commentId],
    ],
    "Chirp's own comments",
  )
  const read = await json<Status>('GET', `/api/v1/statuses/${first.id}`, carol)
  t.match(read, { id: first.id, replies_count: 1, in_reply_to_id: root.id })
  t.equal((await json<Status>('GET', `/api/v1/statuses/${root.id}`)).replies_count, 2, 'a post counts its comments')

  const rootContext = await json<Context>('GET', `/api/v1/statuses/${root.id}/context`)
  t.same(ids(rootContext.ancestors), [])
  t.same(ids(rootContext.descendants), [first.id, second.id], "a post's comments, oldest first")
  const firstContext = await json<Context>('GET', `/api/v1/statuses/${first.id}/context`, carol)
  t.same(ids(firstContext.ancestors), [root.id])
  t.same(ids(firstContext.descendants), [second.id])
  const secondContext = await json<Context>('GET', `/api/v1/statuses/${second.id}/context`, carol)
  t.same(ids(secondContext.ancestors), [root.id, first.id], 'the post, then the comment answered')
  t.same(ids(secondContext.descendants), [])
  for (const status of [...secondContext.ancestors, ...rootContext.descendants]) {
    t.ok(Value.Check(StatusSchema, status), 'a Status')
  }
})

await t.test('a reply to a reply answers its real parent; context reads the tree in thread order', async (t) => {
  const root = await post(alice, { status: 'a tree' })
  const a = await post(bob, { status: 'a', in_reply_to_id: root.id })
  const b = await post(carol, { status: 'b', in_reply_to_id: root.id })
  const a1 = await post(alice, { status: 'a1', in_reply_to_id: a.id })
  const a1x = await post(bob, { status: 'a1x', in_reply_to_id: a1.id })
  const a2 = await post(carol, { status: 'a2', in_reply_to_id: a.id })
  const b1 = await post(alice, { status: 'b1', in_reply_to_id: b.id })
  t.match(a1x, { in_reply_to_id: a1.id, in_reply_to_account_id: alice.user._id }, 'the parent, not the root')
  t.same(
    (await commentsOf(root, alice)).map((comment) => comment.replyTo),
    [null, null, a, a1, a, b].map((status) => (status === null ? null : statusKeyOf(status.id)?.commentId)),
    "Chirp's comments keep their parents",
  )
  const whole = await json<Context>('GET', `/api/v1/statuses/${root.id}/context`)
  t.same(ids(whole.descendants), ids([a, a1, a1x, a2, b, b1]), 'depth first, oldest first among siblings')
  const deep = await json<Context>('GET', `/api/v1/statuses/${a1x.id}/context`, carol)
  t.same(ids(deep.ancestors), ids([root, a, a1]), 'the chain of parents, the post first')
  t.same(ids(deep.descendants), [])
  const middle = await json<Context>('GET', `/api/v1/statuses/${a.id}/context`, carol)
  t.same(ids(middle.ancestors), [root.id])
  t.same(ids(middle.descendants), ids([a1, a1x, a2]), 'the whole subtree')
  t.equal((await json<Status>('GET', `/api/v1/statuses/${a.id}`)).replies_count, 2, 'its direct replies')
})

await t.test('a reply is text alone; a bad reply is refused, writing nothing', async (t) => {
  const root = await post(alice, { status: 'answer me' })
  for (const extra of [
    { media_ids: ['0'.repeat(32)] },
    { poll: { options: ['a', 'b'], expires_in: 3600 } },
    { spoiler_text: 'cw' },
  ]) {
    const res = await call('POST', '/api/v1/statuses', bob, { status: 'x', in_reply_to_id: root.id, ...extra })
    t.equal(res.statusCode, 422, Object.keys(extra).join())
    t.same(res.json(), { error: replyMessages.textOnly })
  }
  t.equal(
    (await call('POST', '/api/v1/statuses', bob, { status: '', in_reply_to_id: root.id })).statusCode,
    400,
    'no text',
  )
  const unknown = statusIdOf({ at: new Date().toISOString(), postId: '00000000-0000-4000-8000-000000000000' })
  notFound(t, await call('POST', '/api/v1/statuses', bob, { status: 'x', in_reply_to_id: unknown }), 'an unknown post')
  notFound(t, await call('POST', '/api/v1/statuses', bob, { status: 'x', in_reply_to_id: 'nope' }), 'no status id')
  for (const visibility of ['private', 'direct']) {
    const res = await call('POST', '/api/v1/statuses', bob, { status: 'x', in_reply_to_id: root.id, visibility })
    t.equal(res.statusCode, 422, `a ${visibility} reply to a public post`)
    t.same(res.json(), { error: replyMessages.audience })
  }
  t.same(await commentsOf(root, alice), [], 'no comment written')
})

await t.test('a comment is seen by exactly those who see its post', async (t) => {
  const root = await post(alice, { status: 'for followers', visibility: 'private' })
  const reply = await post(bob, { status: 'a follower answers', in_reply_to_id: root.id, visibility: 'private' })
  t.equal(reply.visibility, 'private', "its post's audience")
  for (const url of [
    `/api/v1/statuses/${reply.id}`,
    `/api/v1/statuses/${reply.id}/context`,
    `/api/v1/statuses/${root.id}/context`,
  ]) {
    notFound(t, await call('GET', url, carol), `a stranger: ${url.slice(-8)}`)
    notFound(t, await call('GET', url), `signed out: ${url.slice(-8)}`)
    t.equal((await call('GET', url, bob)).statusCode, 200, `a follower: ${url.slice(-8)}`)
  }
  notFound(t, await call('POST', '/api/v1/statuses', carol, { status: 'x', in_reply_to_id: root.id }), 'no reply')
  const wrongTime = statusIdOf({
    ...(statusKeyOf(reply.id) as { postId: string; commentId: string }),
    at: '2020-01-01T00:00:00.000Z',
  })
  notFound(t, await call('GET', `/api/v1/statuses/${wrongTime}`, bob), 'another time names no comment')
})

await t.test('a comment favourited is upvoted; it has no other mark, and is deleted as Chirp allows', async (t) => {
  const root = await post(alice, { status: 'vote on answers' })
  const reply = await post(bob, { status: 'vote for me', in_reply_to_id: root.id })
  const faved = await json<Status>('POST', `/api/v1/statuses/${reply.id}/favourite`, carol)
  t.match(faved, { favourited: true, favourites_count: 1 })
  t.match(
    await json<Status>('POST', `/api/v1/statuses/${reply.id}/favourite`, carol),
    { favourites_count: 1 },
    'twice is once',
  )
  const likers = await json<{ id: string }[]>('GET', `/api/v1/statuses/${reply.id}/favourited_by`)
  t.same(
    likers.map((each) => each.id),
    [carol.user._id],
    'the upvoters',
  )
  t.same(await json('GET', `/api/v1/statuses/${reply.id}/reblogged_by`), [], 'nobody reblogs a comment')
  const unfave = await call('POST', `/api/v1/statuses/${reply.id}/unfavourite`, carol)
  t.equal(unfave.statusCode, 422)
  t.same(unfave.json(), { error: replyMessages.unvote })
  for (const [mark, word] of [
    ['reblog', 'reblogged'],
    ['bookmark', 'bookmarked'],
    ['pin', 'pinned'],
  ]) {
    const res = await call('POST', `/api/v1/statuses/${reply.id}/${mark ?? ''}`, bob)
    t.equal(res.statusCode, 422, String(mark))
    t.same(res.json(), { error: replyMessages.cannot(word ?? '') })
  }
  t.equal((await call('POST', `/api/v1/statuses/${reply.id}/unbookmark`, bob)).statusCode, 200, 'clearing is no error')
  t.match(await json<Status>('GET', `/api/v1/statuses/${reply.id}`, carol), { favourited: true, favourites_count: 1 })
  t.equal((await call('DELETE', `/api/v1/statuses/${reply.id}`, carol)).statusCode, 400, "not another's")
  t.equal((await call('GET', `/api/v1/statuses/${root.id}`)).statusCode, 200, 'the post stays')
  const deleted = await call('DELETE', `/api/v1/statuses/${reply.id}`, bob)
  t.equal(deleted.statusCode, 200)
  t.match(deleted.json(), { id: reply.id, text: 'vote for me' })
  notFound(t, await call('GET', `/api/v1/statuses/${reply.id}`, bob), 'gone')
  t.equal((await call('GET', `/api/v1/statuses/${root.id}`)).statusCode, 200, 'its post stays')
})

await t.test("a post's author may delete a comment on it; unknown threads are not found", async (t) => {
  const root = await post(alice, { status: 'my post, my thread' })
  const reply = await post(carol, { status: 'a comment alice removes', in_reply_to_id: root.id })
  const deleted = await call('DELETE', `/api/v1/statuses/${reply.id}`, alice)
  t.equal(deleted.statusCode, 200)
  t.same((await json<Context>('GET', `/api/v1/statuses/${root.id}/context`)).descendants, [], 'gone from the thread')
  const unknown = statusIdOf({ at: new Date().toISOString(), postId: '00000000-0000-4000-8000-000000000000' })
  notFound(t, await call('GET', `/api/v1/statuses/${unknown}/context`), 'an unknown post')
  notFound(t, await call('GET', '/api/v1/statuses/nope/context'), 'no status id')
  const reblog = statusIdOf({
    at: new Date().toISOString(),
    postId: statusKeyOf(root.id)?.postId ?? '',
    by: bob.user._id,
  })
  notFound(t, await call('GET', `/api/v1/statuses/${reblog}/context`), "a reblog's id")
})

await t.test('reblogged_by: who reblogged, newest first, paged by its Link', async (t) => {
  const root = await post(alice, { status: 'share this' })
  await json('POST', `/api/v1/statuses/${root.id}/reblog`, bob)
  await json('POST', `/api/v1/statuses/${root.id}/reblog`, carol)
  const first = await call('GET', `/api/v1/statuses/${root.id}/reblogged_by?limit=1`)
  t.equal(first.statusCode, 200)
  t.same(
    first.json<{ id: string }[]>().map((each) => each.id),
    [carol.user._id],
    'the newest first',
  )
  const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1] ?? ''
  const second = await call('GET', next.replace('https://chirp.example', ''))
  t.same(
    second.json<{ id: string }[]>().map((each) => each.id),
    [bob.user._id],
    'then the older',
  )
  t.equal(second.headers.link, undefined, 'the end')
  const hidden = await post(alice, { status: 'followers only', visibility: 'private' })
  notFound(t, await call('GET', `/api/v1/statuses/${hidden.id}/reblogged_by`, carol), 'a post the reader may not see')
  notFound(t, await call('GET', '/api/v1/statuses/nope/reblogged_by'), 'no status id')
  const unknown = statusIdOf({ at: new Date().toISOString(), postId: '00000000-0000-4000-8000-000000000000' })
  notFound(t, await call('GET', `/api/v1/statuses/${unknown}/reblogged_by`), 'an unknown post')
})

await t.test('polls: read and voted on through the polls service, once, one choice', async (t) => {
  const status = await post(alice, { status: 'pick one', poll: { options: ['tea', 'coffee'], expires_in: 3600 } })
  const id = status.poll?.id ?? ''
  const poll = await json<Record<string, unknown>>('GET', `/api/v1/polls/${id}`)
  t.ok(Value.Check(PollEntitySchema, poll), 'a Poll')
  t.match(poll, { id, votes_count: 0, expired: false })
  const vote = await api.app.inject({
    method: 'POST',
    url: `/api/v1/polls/${id}/votes`,
    headers: { ...bearer(bob.bearer), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'choices[]=1',
  })
  t.equal(vote.statusCode, 200)
  t.match(vote.json(), {
    voted: true,
    own_votes: [1],
    votes_count: 1,
    options: [{ votes_count: 0 }, { votes_count: 1 }],
  })
  const again = await call('POST', `/api/v1/polls/${id}/votes`, bob, { choices: [0] })
  t.equal(again.statusCode, 400, 'once')
  const two = await call('POST', `/api/v1/polls/${id}/votes`, carol, { choices: [0, 1] })
  t.equal(two.statusCode, 422)
  t.same(two.json(), { error: pollMessages.oneChoice })
  t.equal((await call('POST', `/api/v1/polls/${id}/votes`, carol, { choices: [7] })).statusCode, 400, 'no such option')
  t.equal((await call('POST', `/api/v1/polls/${id}/votes`, carol, { choices: 'x' })).statusCode, 422, 'not a number')
  t.match(await json('GET', `/api/v1/polls/${id}`, carol), { voted: false }, 'carol has not voted')
  t.match(
    await json('GET', `/api/v1/polls/${id}`, bob),
    { votes_count: 1, own_votes: [1], options: [{ votes_count: 0 }, { votes_count: 1 }] },
    'the counts unchanged',
  )
  t.equal((await call('POST', `/api/v1/polls/${id}/votes`, undefined, { choices: [0] })).statusCode, 401)
  const reader = await passwordToken(api, client, carol.username, carol.password, 'read')
  const scoped = await api.app.inject({
    method: 'POST',
    url: `/api/v1/polls/${id}/votes`,
    headers: bearer(reader),
    payload: { choices: [0] },
  })
  t.equal(scoped.statusCode, 403, 'write:statuses is needed')
  const plain = await post(alice, { status: 'no poll here' })
  notFound(t, await call('GET', `/api/v1/polls/${statusKeyOf(plain.id)?.postId ?? ''}`), 'a post without a poll')
  notFound(t, await call('GET', '/api/v1/polls/00000000-0000-4000-8000-000000000000'), 'an unknown poll')
  notFound(t, await call('POST', '/api/v1/polls/nope/votes', bob, { choices: [0] }), 'vote in no poll')
  const hidden = await post(alice, {
    status: 'followers vote',
    visibility: 'private',
    poll: { options: ['a', 'b'], expires_in: 3600 },
  })
  notFound(t, await call('GET', `/api/v1/polls/${hidden.poll?.id ?? ''}`, carol), 'a poll the reader may not see')
  notFound(
    t,
    await call('POST', `/api/v1/polls/${hidden.poll?.id ?? ''}/votes`, carol, { choices: [0] }),
    'nor vote in',
  )
})
