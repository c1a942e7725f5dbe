import type { TSchema } from '@sinclair/typebox'
import t, { type Test } from 'tap'
import * as MSG from '../../common/messages.js'
import { ImportReplySchema } from '../../server/schemas/account.js'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import {
  ConversationDeletedEventSchema,
  ConversationReplySchema,
  ConversationUpdatedEventSchema,
} from '../../server/schemas/conversations.js'
import { NotificationsReplySchema } from '../../server/schemas/notifications.js'
import { PostDeletedEventSchema, PostEventSchema, type AllEventPayloads } from '../../server/schemas/events.js'
import { checkSchema, expectError, expectOk, multipart, signup, type SignedUp } from '../helpers/api.js'
import type { SseClient } from '../helpers/sse.js'
import { conversationCalls, namesIn, nextButNotifications } from '../helpers/conversations.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { seedWithStaff } from '../helpers/moderation.js'
import { makeZip, readZip } from '../helpers/zip.js'

/**
 * Direct messages (DECISIONS §12): a direct post goes to the people it mentions and files into the
 * conversation of that set of people, which each participant sees their own way; every route, error row
 * and rule, with the live events each participant (and nobody else) gets.
 */
const live = await buildLiveApi(t, { options: { seed: seedWithStaff } })
const { api } = live
const { call, dm, list, open, unread } = conversationCalls(api)
/** A new person for each role named, in order. */
const people = <T extends string[]>(...roles: T) =>
  Promise.all(roles.map(() => signup(api))) as Promise<{ [K in keyof T]: SignedUp }>
const at = (who: SignedUp) => `@${who.username}`
const NO_TOKEN = MSG.invalidToken

/** The next event on the stream but notifications (a direct post's mention comes with it), matching its schema. */
async function heard<K extends keyof AllEventPayloads>(t: Test, stream: SseClient, name: K, schema: TSchema) {
  const message = await nextButNotifications(stream)
  t.equal(message.event, name, `event ${name}`)
  const data = JSON.parse(message.data ?? 'null') as AllEventPayloads[K]
  checkSchema(t, schema, data, `${name} data matches its schema`)
  return data
}
const UNKNOWN = '00000000-0000-4000-8000-000000000000'

await t.test('every route answers 401 without a token', async (t) => {
  const routes: ['GET' | 'POST' | 'DELETE', string][] = [
    ['GET', '/api/conversations'],
    ['GET', '/api/conversations/unread'],
    ['GET', `/api/conversations/${UNKNOWN}`],
    ['POST', `/api/conversations/${UNKNOWN}/read`],
    ['DELETE', `/api/conversations/${UNKNOWN}`],
  ]
  for (const [method, url] of routes)
    expectError(t, await call(undefined, method, url), 401, NO_TOKEN, `${method} ${url}`)
})

await t.test('a direct post opens the conversation of its people, each seeing it their own way', async (t) => {
  const [ann, bea, cal] = await people('ann', 'bea', 'cal')
  const post = await dm(ann, `Lunch? ${at(bea)} ${at(cal)}`)
  t.equal(post.visibility, 'direct')
  t.ok(post.conversationId, 'the post names its conversation')
  t.notOk('inReplyTo' in post, 'a first message answers nothing')

  const [mine] = (await list(ann)).conversations
  t.equal(mine?._id, post.conversationId)
  t.strictSame(namesIn(mine), [bea.username, cal.username].sort(), 'the author sees the two others')
  t.equal(mine?.unread, 0, 'their own post is not unread to the author')
  t.equal(mine?.lastPost._id, post._id)
  const [beas] = (await list(bea)).conversations
  t.strictSame(namesIn(beas), [ann.username, cal.username].sort(), 'a recipient sees the others, not themselves')
  t.equal(beas?.unread, 1)
  t.equal(await unread(bea), 1, 'one conversation with unread posts')
  t.equal(await unread(ann), 0)

  const again = await dm(cal, `${at(ann)} ${at(bea)} yes!`)
  t.equal(again.conversationId, post.conversationId, 'the same people, in any order, are the same conversation')
  t.equal((await list(bea)).conversations[0]?.unread, 2, 'unread counts each post')
  t.equal(await unread(bea), 1, 'still one conversation')
  t.equal((await list(ann)).conversations[0]?.unread, 1, 'the author of the first has the second unread')

  const shown = await open(bea, post.conversationId as string)
  t.strictSame(
    shown.posts.map((p) => p._id),
    [again._id, post._id],
    'its posts, newest first',
  )
  t.equal(shown.conversation.unread, 2, 'reading it does not mark it read')
  const first = await open(bea, post.conversationId as string, '?limit=1')
  t.strictSame(
    first.posts.map((p) => p._id),
    [again._id],
  )
  const rest = await open(bea, post.conversationId as string, `?limit=1&cursor=${first.nextCursor}`)
  t.strictSame(
    rest.posts.map((p) => p._id),
    [post._id],
    'the cursor goes older',
  )
  t.equal(rest.nextCursor, null)
})

await t.test('conversations list newest activity first, a page at a time', async (t) => {
  const [me, one, two] = await people('me', 'one', 'two')
  const older = await dm(one, `${at(me)} first`)
  const newer = await dm(two, `${at(me)} second`)
  t.not(older.conversationId, newer.conversationId, 'other people, another conversation')
  t.strictSame(
    (await list(me)).conversations.map((c) => c._id),
    [newer.conversationId, older.conversationId],
  )
  const page = await list(me, '?limit=1')
  t.strictSame(
    page.conversations.map((c) => c._id),
    [newer.conversationId],
  )
  const next = await list(me, `?limit=1&cursor=${page.nextCursor}`)
  t.strictSame(
    next.conversations.map((c) => c._id),
    [older.conversationId],
  )
  t.equal(next.nextCursor, null)
  await dm(me, `${at(one)} back to you`)
  t.strictSame(
    (await list(me)).conversations.map((c) => c._id),
    [older.conversationId, newer.conversationId],
    'a new post moves its conversation to the top',
  )
  expectError(t, await call(me, 'GET', '/api/conversations?cursor=bm9wZQ'), 400, MSG.badCursor, 'a forged cursor')
  expectError(t, await call(me, 'GET', `/api/conversations/${older.conversationId}?cursor=bm9wZQ`), 400, MSG.badCursor)
  const tooMany = await call(me, 'GET', '/api/conversations?limit=101')
  t.equal(tooMany.statusCode, 400, 'limit past 100')
})

await t.test('a conversation the caller is not in is a 404 on every route', async (t) => {
  const [ann, bea, stranger] = await people('ann', 'bea', 'stranger')
  const post = await dm(ann, `${at(bea)} just us`)
  const id = post.conversationId as string
  for (const target of [id, UNKNOWN, 'not-a-uuid']) {
    for (const [method, url] of [
      ['GET', `/api/conversations/${target}`],
      ['POST', `/api/conversations/${target}/read`],
      ['DELETE', `/api/conversations/${target}`],
    ] as const)
      expectError(t, await call(stranger, method, url), 404, MSG.conversationNotFound, `${method} ${url}`)
  }
  t.strictSame((await list(stranger)).conversations, [], 'nor is it listed')
  t.equal((await call(stranger, 'GET', '/api/conversations/has%20space')).statusCode, 400, 'an id that is no id')
})

await t.test('read marks a conversation read, for the caller alone', async (t) => {
  const [ann, bea, cal] = await people('ann', 'bea', 'cal')
  const post = await dm(ann, `${at(bea)} ${at(cal)} hello`)
  const id = post.conversationId as string
  const res = await call(bea, 'POST', `/api/conversations/${id}/read`)
  const { conversation } = expectOk(t, res, 200, ConversationReplySchema, 'read')
  t.equal(conversation.unread, 0)
  t.equal(await unread(bea), 0)
  t.equal((await list(cal)).conversations[0]?.unread, 1, "another's stays unread")
  await dm(cal, `${at(ann)} ${at(bea)} again`)
  t.equal((await list(bea)).conversations[0]?.unread, 1, 'a new post is unread again')
})

await t.test('delete hides a conversation for the caller until a new post reaches them', async (t) => {
  const [ann, bea] = await people('ann', 'bea')
  const post = await dm(ann, `${at(bea)} hello`)
  const id = post.conversationId as string
  expectOk(t, await call(bea, 'DELETE', `/api/conversations/${id}`), 200, EmptyObjectSchema, 'delete')
  t.strictSame((await list(bea)).conversations, [], 'gone from her list')
  t.equal(await unread(bea), 0, 'and from her unread count')
  t.equal((await open(bea, id)).conversation.unread, 0, 'still opened by id, read')
  t.equal((await list(ann)).conversations.length, 1, 'still in his')
  const reply = await dm(ann, 'still there?', { inReplyTo: post._id })
  const [back] = (await list(bea)).conversations
  t.equal(back?._id, id, 'a new post brings it back')
  t.equal(back?.unread, 1, 'with only the new post unread')
  t.equal(back?.lastPost._id, reply._id)
  expectOk(t, await call(ann, 'DELETE', `/api/conversations/${id}`), 200, EmptyObjectSchema)
  await dm(ann, 'my own post', { inReplyTo: reply._id })
  t.equal((await list(ann)).conversations[0]?._id, id, "the author's own new post shows it again to them")
})

await t.test(
  'inReplyTo answers in the same conversation, to the same people, whatever the text mentions',
  async (t) => {
    const [ann, bea, cal, outsider] = await people('ann', 'bea', 'cal', 'outsider')
    const first = await dm(ann, `${at(bea)} ${at(cal)} plans`)
    const reply = await call(bea, 'POST', '/api/posts', {
      postData: { content: `${at(outsider)} should come too`, inReplyTo: first._id },
    })
    t.equal(reply.statusCode, 201, 'a reply without visibility is direct')
    const post = (
      reply.json() as { post: { _id: string; visibility: string; inReplyTo?: string; conversationId?: string } }
    ).post
    t.equal(post.visibility, 'direct')
    t.equal(post.inReplyTo, first._id)
    t.equal(post.conversationId, first.conversationId, 'in the same conversation')
    t.equal((await list(ann)).conversations[0]?.lastPost._id, post._id, 'it reaches the conversation')
    t.equal((await list(cal)).conversations[0]?.unread, 2)
    t.strictSame((await list(outsider)).conversations, [], 'not the person the text mentions')
    expectError(
      t,
      await call(outsider, 'GET', `/api/conversations/${first.conversationId}`),
      404,
      MSG.conversationNotFound,
    )
    const notes = expectOk(t, await call(outsider, 'GET', '/api/notifications'), 200, NotificationsReplySchema)
    t.strictSame(notes.notifications, [], 'nor is the outsider told of it')

    const replyAs = (who: SignedUp, payload: object) => call(who, 'POST', '/api/posts', { content: 'x', ...payload })
    expectError(t, await replyAs(ann, { inReplyTo: UNKNOWN }), 404, MSG.postNotFound, 'an unknown post')
    expectError(
      t,
      await replyAs(outsider, { inReplyTo: first._id }),
      404,
      MSG.postNotFound,
      'one the caller cannot read',
    )
    const open = (await replyAs(ann, {}).then((res) => res.json())) as { post: { _id: string } }
    expectError(t, await replyAs(bea, { inReplyTo: open.post._id }), 400, MSG.replyNotDirect, 'a public post')
    expectError(
      t,
      await replyAs(bea, { inReplyTo: first._id, visibility: 'public' }),
      400,
      MSG.replyNotDirect,
      'a reply that is not direct',
    )
  },
)

await t.test('a mention across a block, either way, is dropped silently', async (t) => {
  const [ann, blocker, blocked, friend] = await people('ann', 'blocker', 'blocked', 'friend')
  await call(blocker, 'POST', `/api/users/block/${ann.user._id}`)
  await call(ann, 'POST', `/api/users/block/${blocked.user._id}`)
  const post = await dm(ann, `${at(blocker)} ${at(blocked)} ${at(friend)} hi all`)
  t.strictSame(namesIn((await list(ann)).conversations[0]), [friend.username], 'only the friend is in it')
  t.strictSame((await list(blocker)).conversations, [], 'not who blocks the author')
  t.strictSame((await list(blocked)).conversations, [], 'nor whom the author blocks')
  expectError(t, await call(blocker, 'GET', `/api/conversations/${post.conversationId}`), 404, MSG.conversationNotFound)

  // A block made later: a reply no longer reaches the one across it, and their posts count no more.
  const [me, you, them] = await people('me', 'you', 'them')
  const first = await dm(me, `${at(you)} ${at(them)} three of us`)
  const theirs = await dm(them, 'a word from them', { inReplyTo: first._id })
  await call(you, 'POST', `/api/users/block/${me.user._id}`)
  await dm(me, 'after the block', { inReplyTo: first._id })
  const [yours] = (await list(you)).conversations
  t.strictSame(namesIn(yours), [them.username], 'the blocked person is no longer shown among its people')
  t.equal(yours?.lastPost._id, theirs._id, 'the blocker does not get the reply')
  t.equal(yours?.unread, 1, 'nor count it, nor the earlier post of the person they now block')
  t.equal((await list(them)).conversations[0]?.unread, 2, 'the third person gets it')
})

await t.test('a muted sender notifies nobody, and the message still arrives', async (t) => {
  const [sender, muter, other] = await people('sender', 'muter', 'other')
  await call(muter, 'POST', `/api/users/mute/${sender.user._id}`, {})
  const hers = await live.stream(t, muter)
  const post = await dm(sender, `${at(muter)} ${at(other)} psst`)
  const { conversation } = await heard(t, hers, 'conversation.updated', ConversationUpdatedEventSchema)
  t.equal(conversation.lastPost._id, post._id, 'it arrives live')
  t.equal((await list(muter)).conversations[0]?.unread, 1, 'and unread')
  const mutersNotes = expectOk(t, await call(muter, 'GET', '/api/notifications'), 200, NotificationsReplySchema)
  t.strictSame(mutersNotes.notifications, [], 'without a notification')
  const othersNotes = expectOk(t, await call(other, 'GET', '/api/notifications'), 200, NotificationsReplySchema)
  t.strictSame(
    othersNotes.notifications.map((n) => [n.type, n.post?._id]),
    [['mention', post._id]],
    'someone who does not mute the sender is told',
  )
})

await t.test('live: each participant hears the conversation as they see it, and nobody else hears it', async (t) => {
  const [ann, bea, outsider] = await people('ann', 'bea', 'outsider')
  const [annStream, beaStream, outsiderStream] = [
    await live.stream(t, ann),
    await live.stream(t, bea),
    await live.stream(t, outsider),
  ]
  const post = await dm(ann, `${at(bea)} secret plans`)
  const toAnn = await heard(t, annStream, 'conversation.updated', ConversationUpdatedEventSchema)
  t.strictSame(namesIn(toAnn.conversation), [bea.username], 'the author hears it with the recipient')
  t.equal(toAnn.conversation.unread, 0)
  const toBea = await heard(t, beaStream, 'conversation.updated', ConversationUpdatedEventSchema)
  t.strictSame(namesIn(toBea.conversation), [ann.username], 'the recipient hears it with the author')
  t.equal(toBea.conversation.unread, 1)
  t.equal(toBea.conversation.lastPost._id, post._id)

  const read = await call(bea, 'POST', `/api/conversations/${post.conversationId}/read`)
  t.equal(read.statusCode, 200)
  const afterRead = await heard(t, beaStream, 'conversation.updated', ConversationUpdatedEventSchema)
  t.equal(afterRead.conversation.unread, 0, "a read reaches the reader's tabs")
  t.equal((await call(bea, 'DELETE', `/api/conversations/${post.conversationId}`)).statusCode, 200)
  const hidden = await heard(t, beaStream, 'conversation.deleted', ConversationDeletedEventSchema)
  t.strictSame(hidden, { conversationId: post.conversationId }, "and a hiding, to the caller's tabs")

  const marker = await live.newPost(ann, 'a public marker')
  for (const stream of [annStream, outsiderStream]) {
    const { post: next } = await live.expectEvent(t, stream, 'post.created', PostEventSchema)
    t.equal(next._id, marker._id, 'the next event is the marker: nothing of the read or the hiding')
  }
  t.notMatch(outsiderStream.text, /secret plans/, 'the outsider heard nothing of it')
  t.notMatch(outsiderStream.text, /conversation\./, 'nor any conversation event')
})

await t.test('deleting a direct post takes it out of the conversation, live', async (t) => {
  const [ann, bea] = await people('ann', 'bea')
  const first = await dm(ann, `${at(bea)} one`)
  const second = await dm(ann, 'two', { inReplyTo: first._id })
  const beaStream = await live.stream(t, bea)
  t.equal((await call(ann, 'DELETE', `/api/posts/${second._id}`)).statusCode, 201)
  await heard(t, beaStream, 'post.deleted', PostDeletedEventSchema)
  const { conversation } = await heard(t, beaStream, 'conversation.updated', ConversationUpdatedEventSchema)
  t.equal(conversation.lastPost._id, first._id, 'the last post is the one before')
  t.equal(conversation.unread, 1, 'and the deleted one is no longer unread')
  t.equal(await unread(bea), 1)
  t.equal((await call(ann, 'DELETE', `/api/posts/${first._id}`)).statusCode, 201)
  t.strictSame((await list(bea)).conversations, [], 'a conversation with no post left is not listed')
  expectError(t, await call(bea, 'GET', `/api/conversations/${first.conversationId}`), 404, MSG.conversationNotFound)
  t.equal(await unread(bea), 0)
})

await t.test('a moderator sees a direct message only when a participant reports it, and only that post', async (t) => {
  const moderator = await api.login('theo_park')
  const mod = { token: moderator } as SignedUp
  const [ann, bea, stranger] = await people('ann', 'bea', 'stranger')
  const first = await dm(ann, `${at(bea)} the first, never reported`)
  const second = await dm(ann, 'the second, reported', { inReplyTo: first._id })
  const report = (who: SignedUp) =>
    call(who, 'POST', '/api/reports', { targetType: 'post', targetId: second._id, category: 'abuse' })
  expectError(t, await report(stranger), 404, MSG.postNotFound, 'someone outside it cannot report it')
  expectError(
    t,
    await call(stranger, 'POST', '/api/reports', {
      targetType: 'comment',
      targetId: UNKNOWN,
      postId: second._id,
      category: 'spam',
    }),
    404,
    MSG.postNotFound,
    'nor a comment on it',
  )
  const before = await call(mod, 'GET', '/api/admin/reports')
  t.notMatch(before.body, /never reported|the second/, 'the queue holds nothing of it before')
  t.equal((await report(bea)).statusCode, 201, 'a participant reports it')
  const queue = await call(mod, 'GET', '/api/admin/reports')
  const { reports } = queue.json() as { reports: { target: { _id: string; content: string } }[] }
  t.equal(reports[0]?.target._id, second._id, 'the moderator sees the reported post')
  t.notMatch(queue.body, /never reported/, 'and nothing else of the conversation')
  expectError(t, await call(mod, 'GET', `/api/conversations/${first.conversationId}`), 404, MSG.conversationNotFound)
  const modList = await call(mod, 'GET', '/api/conversations')
  t.strictSame((modList.json() as { conversations: unknown[] }).conversations, [], 'nor in their own list')
})

await t.test(
  'deleting an account takes the person out of conversations; export keeps their direct posts',
  async (t) => {
    const [leaver, bea, cal] = await people('leaver', 'bea', 'cal')
    const first = await dm(bea, `${at(leaver)} ${at(cal)} group`)
    const theirs = await dm(leaver, 'from the leaver', { inReplyTo: first._id })

    const exported = await call(leaver, 'GET', '/api/account/export')
    t.equal(exported.statusCode, 200)
    const posts = JSON.parse(String((await readZip(exported.rawPayload)).get('posts.json'))) as { content: string }[]
    t.ok(
      posts.some((post) => post.content === 'from the leaver'),
      'the export holds their direct posts',
    )

    const gone = await call(leaver, 'DELETE', '/api/account', { password: leaver.password })
    t.equal(gone.statusCode, 200)
    const [beas] = (await list(bea)).conversations
    t.strictSame(namesIn(beas), [cal.username], 'the others remain, without the leaver')
    t.equal(beas?.lastPost._id, first._id, "the leaver's posts went as posts go")
    t.equal(beas?.unread, 0, 'and are no longer unread')
    t.not(beas?.lastPost._id, theirs._id)
    const later = await dm(cal, `${at(bea)} just the two of us`)
    t.not(later.conversationId, first.conversationId, 'two of the three are another set of people')
  },
)

await t.test('an imported direct post files into its conversation as a new one does, notifying nobody', async (t) => {
  const [ann, bea, cal, dan] = await people('ann', 'bea', 'cal', 'dan')
  const hello = await dm(bea, `${at(ann)} hello`)
  t.equal((await call(dan, 'POST', `/api/users/block/${ann.user._id}`)).statusCode, 200, 'dan blocks ann')
  const beaStream = await live.stream(t, bea)
  const archived = (content: string, visibility = 'direct') => ({
    content,
    visibility,
    createdAt: '2020-05-01T00:00:00.000Z',
  })
  const archive = await makeZip([
    [
      'posts.json',
      JSON.stringify([
        archived(`${at(bea)} an old word`),
        archived(`${at(bea)} ${at(cal)} the three of us`),
        archived(`an open one ${at(bea)}`, 'public'),
        archived(`${at(dan)} across a block`),
      ]),
    ],
  ])
  const res = await api.as(ann.token, {
    method: 'POST',
    url: '/api/account/import',
    ...multipart('file', 'archive.zip', 'application/zip', archive),
  })
  t.equal(expectOk(t, res, 200, ImportReplySchema).imported.posts, 4, 'all four imported')

  const told = await heard(t, beaStream, 'conversation.updated', ConversationUpdatedEventSchema)
  t.equal(told.conversation._id, hello.conversationId, 'the conversation of the two, live')
  t.equal(told.conversation.unread, 1, 'the imported post is unread for its recipient')
  const group = await heard(t, beaStream, 'conversation.updated', ConversationUpdatedEventSchema)
  t.strictSame(namesIn(group.conversation), [ann.username, cal.username], 'and the one of the three opens')
  const { posts } = await open(bea, hello.conversationId as string)
  t.strictSame(
    posts.map((post) => post.content),
    [hello.content, `${at(bea)} an old word`],
    'the conversation holds it at its own date',
  )
  t.equal(posts[1]?.conversationId, hello.conversationId, 'the post names its conversation')
  const theirs = (await list(cal)).conversations
  t.strictSame(
    theirs.map((conversation) => [namesIn(conversation), conversation.unread]),
    [[[ann.username, bea.username], 1]],
    "the third person's list",
  )
  t.equal(await unread(bea), 2, 'both conversations hold an unread post for bea')
  t.strictSame(
    // All active at the moment of the import: in any order.
    (await list(ann)).conversations
      .map((conversation) => [namesIn(conversation), conversation.unread])
      .sort((a, b) => String(a[0]).length - String(b[0]).length),
    [
      [[], 0],
      [[bea.username], 1],
      [[bea.username, cal.username], 0],
    ],
    "the importer is in each (one with nobody else, as the post across a block): bea's hello alone is unread",
  )
  t.strictSame((await list(dan)).conversations, [], 'a mention across a block is left out, as in a new one')
  const notified = expectOk(t, await call(bea, 'GET', '/api/notifications'), 200, NotificationsReplySchema)
  t.strictSame(notified.notifications, [], 'an import notifies nobody')
})

/** A conversation event: `conversation.updated` (its `conversation`) or `conversation.deleted` (its `conversationId`). */
type ConversationEvent = {
  event: string
  data: Partial<AllEventPayloads['conversation.updated'] & AllEventPayloads['conversation.deleted']>
}

/** The conversation events on the stream until `user.deleted`. */
async function conversationEventsUntilGone(stream: SseClient) {
  const heardOf: ConversationEvent[] = []
  for (;;) {
    const message = await stream.until((m) => m.event !== undefined, 5000)
    if (message.event === 'user.deleted') return heardOf
    if (message.event?.startsWith('conversation.')) {
      heardOf.push({ event: message.event, data: JSON.parse(message.data ?? '{}') as ConversationEvent['data'] })
    }
  }
}

await t.test('deleting an account tells the others of each conversation it was in how it now stands', async (t) => {
  const [leaver, bea, cal, dan] = await people('leaver', 'bea', 'cal', 'dan')
  const group = await dm(bea, `${at(leaver)} ${at(cal)} the three of us`)
  const pair = await dm(leaver, `${at(bea)} only the leaver writes here`)
  const aside = await dm(dan, `${at(bea)} unrelated`)
  await dm(leaver, 'from the leaver', { inReplyTo: group._id })
  // The leaver hid the group's conversation: the others are told of it all the same.
  t.equal((await call(leaver, 'DELETE', `/api/conversations/${group.conversationId}`)).statusCode, 200)
  t.equal(await unread(bea), 3, 'before: three conversations unread for bea')
  const streams = [await live.stream(t, bea), await live.stream(t, cal), await live.stream(t, dan)]

  const gone = await call(leaver, 'DELETE', '/api/account', { password: leaver.password })
  expectOk(t, gone, 200, EmptyObjectSchema)
  const [toBea = [], toCal = [], toDan = []] = await Promise.all(streams.map(conversationEventsUntilGone))
  const updated = (events: ConversationEvent[]) =>
    events.flatMap(({ event, data }) =>
      event === 'conversation.updated' && data.conversation ? [data.conversation] : [],
    )
  const [beas] = updated(toBea)
  t.strictSame(
    [beas?._id, namesIn(beas), beas?.lastPost._id, beas?.unread],
    [group.conversationId, [cal.username], group._id, 0],
    "bea hears the group's conversation without the leaver, their reply gone from its last post and unread",
  )
  t.ok(
    toBea.some(({ event, data }) => event === 'conversation.deleted' && data.conversationId === pair.conversationId),
    'and that the conversation only the leaver wrote in is gone for her',
  )
  t.equal(toBea.length, 2, 'nothing else of conversations')
  const [cals] = updated(toCal)
  t.strictSame(
    [toCal.length, cals?._id, namesIn(cals), cals?.lastPost._id, cals?.unread],
    [1, group.conversationId, [bea.username], group._id, 1],
    "cal hears it too, bea's first post still unread",
  )
  t.strictSame(toDan, [], 'dan, in none of them, hears nothing')

  const listed = (await list(bea)).conversations
  t.strictSame(
    listed.map((conversation) => [conversation._id, namesIn(conversation), conversation.lastPost._id]).sort(),
    [
      [group.conversationId, [cal.username], group._id],
      [aside.conversationId, [dan.username], aside._id],
    ].sort(),
    "bea's list: the group without the leaver, and the one that never held them; not the one only they wrote in",
  )
  t.equal(await unread(bea), 1, "only dan's conversation is unread for her")
  expectError(t, await call(bea, 'GET', `/api/conversations/${pair.conversationId}`), 404, MSG.conversationNotFound)
})
