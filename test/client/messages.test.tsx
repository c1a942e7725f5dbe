import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import type { Conversation, DirectPost, User } from '../../client/api/types.js'
import { conversations } from '../../client/state/conversations.js'
import * as MSG from '../../common/messages.js'
import { fail, makePost, ok, resetAll, summary, until } from './helpers.js'
import { liveApp, samples, type Routes } from './live-app.js'

/**
 * Direct messages (DECISIONS §12): the Messages link and its unread badge, the list of conversations,
 * one conversation (oldest at the top, older on request, the answer box), a new conversation, hiding one,
 * and all of it live.
 */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

let { me, maya, theo } = samples()
t.beforeEach(() => void ({ me, maya, theo } = samples()))

let minute = 0
/** A direct message of conversation c1 by `author`, a minute after the last one made. */
function message(author: User, content: string, extra: Partial<DirectPost> = {}): DirectPost {
  minute += 1
  const at = new Date(Date.UTC(2026, 0, 10, 11, minute)).toISOString()
  return {
    ...makePost({
      ...summary(author),
      _id: `m-${content.replace(/\W+/g, '-')}`,
      content,
      visibility: 'direct',
      createdAt: at,
      updatedAt: at,
    }),
    conversationId: 'c1',
    ...extra,
  }
}

const conversation = (lastPost: DirectPost, unread = 0, participants = [summary(maya)]): Conversation => ({
  _id: lastPost.conversationId ?? 'c1',
  participants,
  lastPost,
  unread,
})

const messagesLink = () => screen.getByRole('link', { name: /^Messages/ })

await t.test('Messages is in the navigation, with the count of unread conversations kept live', async (t) => {
  const first = message(maya, 'Hello there')
  const { send } = await liveApp(t, me, '/explore', {
    'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
    'GET /api/conversations/unread': () => ok({ count: 2 }),
  })
  await until(() => messagesLink().getAttribute('aria-label') === 'Messages, 2 unread conversations')
  t.equal(messagesLink().getAttribute('href'), '/messages')
  t.equal(messagesLink().querySelector('.nav-badge')?.textContent, '2')
  // A conversation the tab has not loaded: the count is asked for again.
  send('conversation.updated', { conversation: conversation(first, 1) })
  await until(() => conversations.unread === 2)
  t.pass('the server is asked, as the tab cannot tell')
})

await t.test('the list: who, the newest message, unread; a live message moves its conversation up', async (t) => {
  const older = { ...conversation(message(theo, 'Seen it'), 0, [summary(theo)]), _id: 'c2' }
  const newer = conversation(message(maya, 'Are you coming?'), 2)
  const { send } = await liveApp(t, me, '/messages', {
    'GET /api/conversations': () => ok({ conversations: [newer, older], nextCursor: null }),
    'GET /api/conversations/unread': () => ok({ count: 1 }),
  })
  const list = await screen.findByRole('list', { name: 'Conversations' })
  const rows = () => within(list).getAllByRole('listitem')
  t.match(rows()[0]?.textContent, /Maya Lin.*Are you coming\?.*2 unread/)
  t.match(rows()[1]?.textContent, /Theo Park.*Seen it/)
  t.equal(
    within(rows()[0] as HTMLElement)
      .getByRole('link')
      .getAttribute('href'),
    '/messages/c1',
  )
  const results = await axe.run(document.querySelector('main') ?? document.body)
  t.strictSame(
    results.violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )

  const reply = { ...message(theo, 'Now I am here'), conversationId: 'c2' }
  send('conversation.updated', { conversation: { ...older, lastPost: reply, unread: 1 } })
  await until(() => /Now I am here/.test(rows()[0]?.textContent ?? ''))
  t.match(rows()[0]?.textContent, /Theo Park.*1 unread/, 'the newest activity first')
  await until(() => messagesLink().getAttribute('aria-label') === 'Messages, 2 unread conversations')
  t.pass('one more conversation has unread messages')

  send('conversation.deleted', { conversationId: 'c1' })
  await until(() => rows().length === 1)
  await until(() => messagesLink().getAttribute('aria-label') === 'Messages, 1 unread conversations')
  t.pass('a conversation hidden in another tab leaves the list and the count')
})

await t.test('hiding a conversation from the list', async (t) => {
  const { api } = await liveApp(t, me, '/messages', {
    'GET /api/conversations': () => ok({ conversations: [conversation(message(maya, 'Hi'))], nextCursor: null }),
    'GET /api/conversations/unread': () => ok({ count: 0 }),
    'DELETE /api/conversations/c1': () => ok({}),
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Options for the conversation with Maya Lin' }))
  fireEvent.click(screen.getByRole('menuitem', { name: 'Hide conversation' }))
  t.ok(await screen.findByText('The conversation was hidden until a new message comes'))
  t.ok(await screen.findByText(/No messages yet/))
  t.ok(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/conversations/c1'))
})

/** Conversation c1 with Maya: five messages in two pages, the newest first, and one unread. */
function conversationRoutes(): { routes: Routes; sent: unknown[] } {
  const all = [
    message(maya, 'One'),
    message(me, 'Two'),
    message(maya, 'Three'),
    message(me, 'Four'),
    message(maya, 'Five'),
  ].reverse()
  const sent: unknown[] = []
  let read = false
  const current = () => conversation(all[0] as DirectPost, read ? 0 : 1)
  const routes: Routes = {
    'GET /api/conversations/c1': (request) =>
      request.query.get('cursor') === 'older'
        ? ok({ conversation: current(), posts: all.slice(3), nextCursor: null })
        : ok({ conversation: current(), posts: all.slice(0, 3), nextCursor: 'older' }),
    'POST /api/conversations/c1/read': () => {
      read = true
      return ok({ conversation: current() })
    },
    'GET /api/conversations/unread': () => ok({ count: read ? 0 : 1 }),
    'POST /api/posts': (request) => {
      const { postData } = request.body as { postData: { content: string } }
      sent.push(postData)
      const post = message(me, postData.content)
      all.unshift(post)
      return ok({ post })
    },
  }
  return { routes, sent }
}

const shownMessages = () =>
  within(screen.getByRole('list', { name: 'Messages' }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('.message-text')?.textContent)

await t.test('a conversation reads oldest at the top, loads older ones, and is marked read on opening', async (t) => {
  const { api } = await liveApp(t, me, '/messages/c1', conversationRoutes().routes)
  t.ok(await screen.findByRole('heading', { name: 'Maya Lin' }))
  await until(() => shownMessages().length === 3)
  t.same(shownMessages(), ['Three', 'Four', 'Five'], 'the newest at the bottom')
  await until(() => api.calls.some((c) => c.method === 'POST' && c.path === '/api/conversations/c1/read'))
  await until(() => messagesLink().getAttribute('aria-label') === null)
  t.pass('read, and the badge is gone')
  const mine = screen.getAllByRole('listitem').filter((li) => li.classList.contains('is-mine'))
  t.same(
    mine.map((li) => li.querySelector('.message-text')?.textContent),
    ['Four'],
    'my messages are told apart',
  )
  fireEvent.click(screen.getByRole('button', { name: 'Load older messages' }))
  await until(() => shownMessages().length === 5)
  t.same(shownMessages(), ['One', 'Two', 'Three', 'Four', 'Five'])
  t.equal(screen.queryByRole('button', { name: 'Load older messages' }), null, 'nothing older')
  const results = await axe.run(document.querySelector('main') ?? document.body)
  t.strictSame(
    results.violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )
})

await t.test('the answer box sends a direct post answering the newest message, and shows it at once', async (t) => {
  const { routes, sent } = conversationRoutes()
  await liveApp(t, me, '/messages/c1', routes)
  await until(() => screen.queryAllByText('Five').length === 1)
  const box = screen.getByLabelText('Message to Maya Lin')
  fireEvent.change(box, { target: { value: 'Six, from me' } })
  fireEvent.keyDown(box, { key: 'Enter' })
  await until(() => sent.length === 1)
  t.same(sent[0], {
    content: 'Six, from me',
    media: [],
    visibility: 'direct',
    inReplyTo: 'm-Five',
  })
  await until(() => shownMessages().at(-1) === 'Six, from me')
  t.equal((box as HTMLTextAreaElement).value, '', 'the box is empty again')
  fireEvent.change(box, { target: { value: 'Seven' } })
  fireEvent.click(screen.getByRole('button', { name: 'Send' }))
  await until(() => sent.length === 2)
  t.match(sent[1], { content: 'Seven', inReplyTo: 'm-Six-from-me' }, 'the next answers the newest, mine')
  fireEvent.change(box, { target: { value: 'a new line' } })
  fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })
  t.equal(sent.length, 2, 'Shift+Enter does not send')
})

await t.test('a message that arrives live shows at the bottom of the open conversation, read at once', async (t) => {
  const { api, send } = await liveApp(t, me, '/messages/c1', conversationRoutes().routes)
  await until(() => shownMessages().length === 3)
  const reads = () => api.calls.filter((c) => c.path === '/api/conversations/c1/read').length
  await until(() => reads() === 1)
  const live = message(maya, 'Just arrived')
  send('conversation.updated', { conversation: conversation(live, 1) })
  await until(() => shownMessages().at(-1) === 'Just arrived')
  t.equal(
    screen.getByText('New message from Maya Lin: Just arrived').getAttribute('role'),
    'status',
    'said to a screen reader',
  )
  await until(() => reads() === 2)
  t.pass('and marked read, as it is on screen')
  send('post.created', { post: live })
  t.equal(screen.getAllByText('Just arrived').length, 1, 'the same message twice shows once')
  send('post.deleted', { postId: live._id })
  await until(() => screen.queryByText('Just arrived') === null)
  t.pass('a deleted message leaves the conversation')
})

await t.test('a conversation that is not mine, or was hidden, says so', async (t) => {
  await liveApp(t, me, '/messages/nope', {
    'GET /api/conversations/nope': () => fail(404, MSG.postNotFound),
  })
  t.ok(await screen.findByText("This conversation is hidden, or it isn't yours to read."))
  t.equal(screen.getByRole('link', { name: 'Back to Messages' }).getAttribute('href'), '/messages')
})

await t.test('New message: recipients by username, each checked, then a direct post mentioning them', async (t) => {
  const posted: unknown[] = []
  const { api } = await liveApp(t, me, '/messages', {
    'GET /api/conversations': () => ok({ conversations: [], nextCursor: null }),
    'GET /api/users/maya': () => ok({ user: maya }),
    'GET /api/users/theo': () => ok({ user: theo }),
    'GET /api/users/nobody': () => fail(404, MSG.userNotFound),
    'POST /api/posts': (request) => {
      const { postData } = request.body as { postData: { content: string } }
      posted.push(postData)
      return ok({ post: message(me, postData.content, { conversationId: 'c9' }) })
    },
    'GET /api/conversations/c9': () =>
      ok({ conversation: conversation(message(me, 'x', { conversationId: 'c9' })), posts: [], nextCursor: null }),
  })
  fireEvent.click(await screen.findByRole('button', { name: 'New message' }))
  const dialog = screen.getByRole('dialog', { name: 'New message' })
  const to = within(dialog).getByRole('textbox', { name: 'To' })
  t.equal(document.activeElement, to, 'the dialog opens on the To field')
  const send = within(dialog).getByRole('button', { name: 'Send' }) as HTMLButtonElement
  t.ok(send.disabled, 'nothing to send yet')
  fireEvent.change(to, { target: { value: '@maya, nobody' } })
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Message' }), { target: { value: 'Lunch?' } })
  fireEvent.click(send)
  t.equal((await within(dialog).findByRole('alert')).textContent, 'Nobody is called @nobody.')
  t.equal(to.getAttribute('aria-invalid'), 'true')
  t.same(posted, [], 'nothing sent to nobody')
  const results = await axe.run(dialog)
  t.strictSame(
    results.violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )

  fireEvent.change(to, { target: { value: '@maya theo maya' } })
  fireEvent.click(send)
  await until(() => posted.length === 1)
  t.same(posted[0], { content: '@maya @theo Lunch?', media: [], visibility: 'direct' })
  t.ok(await screen.findByText('Your message was sent'))
  await until(() => api.calls.some((c) => c.path === '/api/conversations/c9'))
  t.pass('the new conversation opens')
})
