import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { VISIBILITIES, type Visibility } from '../../common/audience.js'
import { PostDeletedEventSchema } from '../../server/schemas/events.js'
import { NotificationsReplySchema, UnreadReplySchema } from '../../server/schemas/notifications.js'
import type { Post } from '../../server/schemas/posts.js'
import { expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { openSse, type SseClient } from '../helpers/sse.js'

/**
 * Live events by audience (DECISIONS §12): every event about a post reaches only the streams of who may
 * read it, and someone who can no longer read a post gets its `post.deleted`.
 */
const live = await buildLiveApi(t)
const { api, write, newPost, stream, expectEvent } = live

const post = async (who: SignedUp, content: string, visibility: Visibility) =>
  ((await write(who, 'POST', '/api/posts', { content, visibility })).json() as { post: Post }).post

/** Who may read a post of each audience, of the author, a follower, the person it mentions and a stranger. */
const READERS: Record<Visibility, readonly string[]> = {
  public: ['author', 'follower', 'mentioned', 'stranger'],
  unlisted: ['author', 'follower', 'mentioned', 'stranger'],
  followers: ['author', 'follower', 'mentioned'],
  direct: ['author', 'mentioned'],
}

await t.test('someone signed out opens no stream at all', async (t) => {
  const res = await api.app.inject({ method: 'POST', url: '/api/events/ticket' })
  expectError(t, res, 401, 'The token is invalid. Unauthorized access error.', 'a ticket without a token')
})

for (const visibility of VISIBILITIES) {
  await t.test(`${visibility}: the events of a post reach only the streams of who may read it`, async (t) => {
    const [author, follower, mentioned, stranger, third] = [
      await signup(api),
      await signup(api),
      await signup(api),
      await signup(api),
      await signup(api),
    ]
    await write(follower, 'POST', `/api/users/follow/${author.user._id}`)
    const people = { author, follower, mentioned, stranger }
    const streams = Object.fromEntries(
      await Promise.all(Object.entries(people).map(async ([role, who]) => [role, await stream(t, who)] as const)),
    )
    const written = await post(author, `for some eyes @${mentioned.username}`, visibility)
    t.equal(written.visibility, visibility, 'written with its audience')
    t.equal((await write(author, 'POST', `/api/posts/edit/${written._id}`, { content: 'edited' })).statusCode, 201)
    t.equal((await write(mentioned, 'POST', `/api/posts/like/${written._id}`)).statusCode, 201, 'a like')
    const comment = await write(mentioned, 'POST', `/api/comments/add/${written._id}`, { text: 'a reply' })
    t.equal(comment.statusCode, 201, 'a comment')
    const marker = await newPost(third, 'a public marker')
    // A direct post is told by its conversation's event (conversation.updated), not by post.created.
    const names = ['post.created', 'post.updated', 'post.liked', 'comment.added'].filter(
      (name) => visibility !== 'direct' || name !== 'post.created',
    )
    const all = names.map((name) => `${name} ${written._id}`)
    for (const [role, client] of Object.entries(streams)) {
      const expected = READERS[visibility].includes(role) ? all : []
      t.strictSame(
        await live.postEventsUntil(client, marker._id),
        expected,
        `${role}: ${expected.length ? 'all' : 'none'}`,
      )
      if (expected.length === 0) t.notMatch(client.text, /for some eyes|a reply/, `${role}: not a word of it`)
    }
  })
}

await t.test("unfollowing drops the author's followers posts from open screens at once", async (t) => {
  const [author, follower, third] = [await signup(api), await signup(api), await signup(api)]
  await write(follower, 'POST', `/api/users/follow/${author.user._id}`)
  const closed = await post(author, 'for followers only', 'followers')
  const addressed = await post(author, `for followers, and you @${follower.username}`, 'followers')
  const open = await post(author, 'for everyone', 'public')
  const direct = await post(author, `just you @${follower.username}`, 'direct')
  const theirs = await stream(t, follower)
  await write(follower, 'POST', `/api/users/unfollow/${author.user._id}`)
  t.equal((await live.nextEvent(theirs)).event, 'user.unfollowed', 'the unfollow first')
  const gone = await expectEvent(t, theirs, 'post.deleted', PostDeletedEventSchema)
  t.strictSame(
    gone,
    { postId: closed._id, createdAt: closed.createdAt },
    'then the one followers post they may no longer read',
  )
  for (const each of [closed, addressed, open, direct]) {
    await write(author, 'POST', `/api/posts/edit/${each._id}`, { content: `edited ${each.content}` })
  }
  const marker = await newPost(third, 'a marker')
  t.strictSame(
    await live.postEventsUntil(theirs, marker._id),
    [addressed, open, direct].map((each) => `post.updated ${each._id}`),
    'no more of it; the posts that addressed them, and the open one, go on',
  )
})

await t.test('a block that ends a follow drops the followers posts of the blocker from the blocked', async (t) => {
  const [author, follower] = [await signup(api), await signup(api)]
  await write(follower, 'POST', `/api/users/follow/${author.user._id}`)
  const closed = await post(author, 'for followers only', 'followers')
  const theirs = await stream(t, follower)
  await write(author, 'POST', `/api/users/block/${follower.user._id}`)
  t.equal((await live.nextEvent(theirs)).event, 'user.unfollowed', 'the follow ended')
  t.strictSame(await expectEvent(t, theirs, 'post.deleted', PostDeletedEventSchema), {
    postId: closed._id,
    createdAt: closed.createdAt,
  })
})

await t.test("following opens the author's followers posts to a stream already open", async (t) => {
  const [author, reader, third] = [await signup(api), await signup(api), await signup(api)]
  const mine = await stream(t, reader)
  const before = await post(author, 'before the follow', 'followers')
  await write(reader, 'POST', `/api/users/follow/${author.user._id}`)
  const after = await post(author, 'after the follow', 'followers')
  const marker = await newPost(third, 'a marker')
  t.strictSame(await live.postEventsUntil(mine, marker._id), [`post.created ${after._id}`], 'only the one after it')
  t.notMatch(mine.text, new RegExp(before._id), 'the earlier one never')
})

/** A new stream of `who` that resumes after `lastEventId`, as a client reconnecting. */
async function resume(t: Test, who: SignedUp, lastEventId: string): Promise<SseClient> {
  const { ticket } = (await api.as(who.token, { method: 'POST', url: '/api/events/ticket' })).json() as {
    ticket: string
  }
  const port = (api.app.server.address() as AddressInfo).port
  const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`, {
    'last-event-id': lastEventId,
  })
  t.teardown(() => client.close())
  return client
}

await t.test('a reconnecting stream is replayed only what its reader may read', async (t) => {
  const [author, follower, stranger, third] = [
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
  ]
  await write(follower, 'POST', `/api/users/follow/${author.user._id}`)
  const first = [await stream(t, follower), await stream(t, stranger)]
  await newPost(third, 'where they left')
  const left = new Map<SignedUp, string>()
  for (const [i, who] of [follower, stranger].entries()) {
    const client = first[i] as SseClient
    const last = await live.nextEvent(client)
    t.equal(last.event, 'post.created', 'the last event seen')
    left.set(who, last.id as string)
    client.close()
  }
  const closed = await post(author, 'missed, for followers', 'followers')
  const marker = await newPost(third, 'a marker')
  const resumed = await resume(t, follower, left.get(follower) as string)
  t.strictSame(
    await live.postEventsUntil(resumed, marker._id),
    [`post.created ${closed._id}`],
    'the follower: replayed it',
  )
  const theirs = await resume(t, stranger, left.get(stranger) as string)
  t.strictSame(await live.postEventsUntil(theirs, marker._id), [], 'the stranger: not')
  t.notMatch(theirs.text, /missed, for followers/, 'not a word of it')
})

await t.test('the unread count an event or a mark-read carries counts only what the list shows', async (t) => {
  const [author, reader, first, second] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  await write(reader, 'POST', `/api/users/follow/${author.user._id}`)
  const closed = await post(author, 'for followers only', 'followers')
  await write(first, 'POST', `/api/users/follow/${reader.user._id}`)
  await write(author, 'POST', `/api/comments/add/${closed._id}`, { text: `see this @${reader.username}` })
  const listed = async () => {
    const res = await api.as(reader.token, { method: 'GET', url: '/api/notifications' })
    return expectOk(t, res, 200, NotificationsReplySchema)
  }
  t.equal((await listed()).unread, 2, 'a follow and a mention in a comment on the followers post')
  const theirs = await stream(t, reader)
  const next = async (name: string) => {
    const message = await theirs.until((m) => m.event === name, 3000)
    return (JSON.parse(message.data ?? '{}') as { unread: number }).unread
  }
  await write(reader, 'POST', `/api/users/unfollow/${author.user._id}`)
  const [told, ...rest] = (await listed()).notifications
  t.strictSame([told?.type, rest.length, (await listed()).unread], ['follow', 0, 1], 'the mention leaves the list')
  t.equal(await next('notification.read'), 1, 'and the count, on open screens at once')
  await write(second, 'POST', `/api/users/follow/${reader.user._id}`)
  t.equal(await next('notification.created'), 2, 'a new notification: the two the list shows')
  await write(second, 'POST', `/api/users/unfollow/${reader.user._id}`)
  t.equal(await next('notification.read'), 1, 'one taken back: the one the list shows')
  const marked = await api.as(reader.token, {
    method: 'POST',
    url: '/api/notifications/read',
    payload: { before: told?._id },
  })
  t.equal(expectOk(t, marked, 200, UnreadReplySchema).unread, 0, 'marked read: none the list shows is unread')
  t.equal(await next('notification.read'), 0, 'and the other streams hear the same')
  t.equal((await listed()).unread, 0, 'as the list says')
})
