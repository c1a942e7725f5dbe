import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import type { Report, User } from '../../client/api/types.js'
import { ModerationLogPage, ModerationPage, ModerationPersonPage } from '../../client/pages/moderation/index.js'
import { ModerationPeoplePage } from '../../client/pages/moderation/people-page.js'
import { moderation } from '../../client/state/moderation.js'
import { liveApp } from './live-app.js'
import {
  fakeIntersectionObserver,
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  summary,
  until,
} from './helpers.js'

/** The Moderation item and pages: the live count, the queue's actions, a person's page, the audit log. */
t.beforeEach(resetAll)
t.afterEach(() => {
  cleanup()
  resetAll()
})

const AT = '2026-01-10T11:00:00.000Z'
const moderator = makeUser({ username: 'mod', role: 'moderator' })
const admin = makeUser({ username: 'boss', role: 'admin' })
const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' })
const theo = makeUser({ username: 'theo', firstName: 'Theo', lastName: 'Park', _id: 'id-theo' })

function reportOf(overrides: Partial<Report> = {}): Report {
  return {
    _id: 'r1',
    reporter: summary(maya),
    targetType: 'post',
    targetId: 'p9',
    subjectId: theo._id,
    target: makePost({ _id: 'p9', id: 'p9', username: 'theo', content: 'buy cheap pills' }),
    removed: false,
    category: 'spam',
    comment: 'sells pills',
    status: 'open',
    createdAt: AT,
    ...overrides,
  }
}

const moderated = (user: User, extra: object = {}) => ({
  ...summary(user),
  role: 'user',
  pending: false,
  suspension: null,
  createdAt: AT,
  ...extra,
})

await t.test('moderators see Moderation with the open count, which rises live', async (t) => {
  const { send, api } = await liveApp(t, moderator, '/explore', {
    'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'GET /api/admin/reports': () => ok({ reports: [], nextCursor: null, open: 2 }),
  })
  await until(() => api.calls.some((c) => c.path === '/api/admin/reports'))
  const nav = screen.getByRole('navigation', { name: 'Main' })
  await within(nav).findByRole('link', { name: 'Moderation, 2 open reports' })
  send('report.created', { report: reportOf({ _id: 'r2' }), open: 3 })
  const link = await within(nav).findByRole('link', { name: 'Moderation, 3 open reports' })
  t.equal(link.getAttribute('href'), '/moderation')
})

await t.test('everyone else has no Moderation item, and the pages say they are not allowed', async (t) => {
  const api = stubApi({})
  t.teardown(api.restore)
  signInAs(makeUser({ username: 'guest' }))
  renderAt('/moderation', <ModerationPage />)
  t.ok(screen.getByRole('heading', { name: 'Not allowed' }))
  t.match(screen.getByText(/Only moderators and admins/).textContent, /moderation pages/)
  t.equal(api.calls.length, 0, 'nothing of the queue is asked for')
})

await t.test('the queue shows each report in context, and Remove resolves it in one click with the note', async (t) => {
  let open = 2
  const api = stubApi({
    'GET /api/admin/reports': (req) =>
      ok(
        req.query.get('status') === 'resolved'
          ? {
              reports: [reportOf({ _id: 'r0', status: 'resolved', action: 'dismiss', note: 'fine' })],
              nextCursor: null,
              open,
            }
          : {
              reports: [
                reportOf(),
                reportOf({ _id: 'r3', targetType: 'user', targetId: theo._id, target: summary(theo), comment: '' }),
              ],
              nextCursor: null,
              open,
            },
      ),
    'POST /api/admin/reports/r1/resolve': () => {
      open -= 1
      return ok({ report: reportOf({ status: 'resolved', action: 'remove' }) })
    },
  })
  t.teardown(api.restore)
  signInAs(moderator)
  renderAt('/moderation', <ModerationPage />)
  const list = await screen.findByRole('list', { name: 'Open reports (2)' })
  const [post, user] = within(list)
    .getAllByRole('listitem')
    .filter((item) => item.classList.contains('report-card'))
  if (!post || !user) throw new Error('both reports are drawn')
  t.ok(within(post).getByRole('heading', { name: 'Spam: a post by @theo' }))
  t.ok(within(post).getByText('buy cheap pills'), 'the reported post is shown')
  t.ok(within(post).getByText('“sells pills”'), "with the reporter's comment")
  t.equal(within(post).getByRole('link', { name: 'Maya Lin' }).getAttribute('href'), '/moderation/users/id-maya')
  t.equal(within(user).queryByRole('button', { name: /Remove/ }), null, 'a reported person has nothing to remove')
  t.ok(within(user).getByRole('button', { name: 'Suspend @theo' }))
  fireEvent.change(within(post).getByRole('textbox', { name: 'Note (optional)' }), { target: { value: 'ad spam' } })
  fireEvent.click(within(post).getByRole('button', { name: 'Remove post' }))
  await until(() => !screen.queryByText('buy cheap pills'))
  t.same(api.calls.find((c) => c.method === 'POST')?.body, { action: 'remove', note: 'ad spam' })
  t.equal(moderation.open, 1, 'the count falls with it')
  fireEvent.click(screen.getByRole('tab', { name: 'Resolved' }))
  const resolved = await screen.findByRole('list', { name: 'Resolved reports' })
  t.match(resolved.textContent, /Dismissed by @.*: fine|Dismissed: fine/)
  t.equal(within(resolved).queryByRole('button', { name: 'Dismiss' }), null, 'a resolved report has no actions')
})

await t.test("a person's page suspends with a reason and days, lifts it, and admins set the role", async (t) => {
  let user = moderated(theo)
  const api = stubApi({
    'GET /api/admin/users/id-theo': () => ok({ user }),
    'POST /api/admin/users/id-theo/suspend': (req) => {
      const { reason } = req.body as { reason: string }
      user = moderated(theo, { suspension: { reason, at: AT, until: '2026-01-13T11:00:00.000Z' } })
      return ok({ user })
    },
    'POST /api/admin/users/id-theo/unsuspend': () => {
      user = moderated(theo)
      return ok({ user })
    },
    'POST /api/admin/users/id-theo/role': (req) => {
      user = moderated(theo, { role: (req.body as { role: string }).role })
      return ok({ user })
    },
  })
  t.teardown(api.restore)
  signInAs(admin)
  renderAt('/moderation/users/id-theo', <ModerationPersonPage id="id-theo" />)
  await screen.findByText('In good standing')
  const form = screen.getByRole('form', { name: 'Suspend @theo' })
  fireEvent.change(within(form).getByRole('textbox', { name: 'Reason' }), { target: { value: 'spam' } })
  fireEvent.change(within(form).getByRole('spinbutton', { name: /Days/ }), { target: { value: '3' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Suspend' }))
  await screen.findByText(/Suspended until .*: spam/)
  t.same(api.calls.find((c) => c.path.endsWith('/suspend'))?.body, { reason: 'spam', days: 3 })
  fireEvent.click(screen.getByRole('button', { name: 'Lift the suspension' }))
  await screen.findByText('In good standing')
  fireEvent.change(screen.getByRole('combobox', { name: 'Role' }), { target: { value: 'moderator' } })
  fireEvent.click(screen.getByRole('button', { name: 'Save role' }))
  await until(() => api.calls.some((c) => c.path.endsWith('/role')))
  t.same(api.calls.find((c) => c.path.endsWith('/role'))?.body, { role: 'moderator' })
  await until(() => screen.getByRole('region', { name: '@theo' }).querySelector('strong')?.textContent === 'moderator')
  t.pass('the page shows the new role')
})

await t.test('a moderator cannot set roles; a waiting signup is approved from the people page', async (t) => {
  const waiting = makeUser({ username: 'newbie', _id: 'id-new' })
  const api = stubApi({
    'GET /api/admin/users/id-theo': () => ok({ user: moderated(theo) }),
    'GET /api/admin/users': () => ok({ users: [moderated(waiting, { pending: true })], nextCursor: null }),
    'POST /api/admin/users/id-new/approve': () => ok({ user: moderated(waiting) }),
  })
  t.teardown(api.restore)
  signInAs(moderator)
  renderAt('/moderation/users/id-theo', <ModerationPersonPage id="id-theo" />)
  await screen.findByText('In good standing')
  t.equal(screen.queryByRole('combobox', { name: 'Role' }), null)
  cleanup()
  renderAt('/moderation/users', <ModerationPeoplePage />)
  const list = await screen.findByRole('list', { name: 'Signups waiting for approval' })
  fireEvent.click(within(list).getByRole('button', { name: 'Approve @newbie' }))
  await screen.findByText('Nobody is waiting for approval.')
  t.ok(api.calls.some((c) => c.method === 'POST' && c.path === '/api/admin/users/id-new/approve'))
})

await t.test('the audit log reads a page at a time as its end comes into view', async (t) => {
  const observer = fakeIntersectionObserver(t)
  const entry = (id: string, action: string) => ({
    _id: id,
    actor: summary(moderator),
    action,
    targetType: 'user',
    targetId: theo._id,
    target: summary(theo),
    reason: 'why not',
    createdAt: AT,
  })
  const api = stubApi({
    'GET /api/admin/log': (req) =>
      ok(
        req.query.get('cursor') === 'next'
          ? {
              entries: [{ ...entry('a2', 'role'), actor: 'cli', reason: undefined, target: undefined }],
              nextCursor: null,
            }
          : { entries: [entry('a1', 'suspend')], nextCursor: 'next' },
      ),
  })
  t.teardown(api.restore)
  signInAs(moderator)
  renderAt('/moderation/log', <ModerationLogPage />)
  const list = await screen.findByRole('list', { name: 'Audit log' })
  t.match(list.textContent, /@mod — suspend — Theo Park \(@theo\): “why not”/, 'the person suspended is named')
  const named = within(list).getByRole('link', { name: 'Theo Park (@theo)' })
  t.equal(named.getAttribute('href'), `/moderation/users/${theo._id}`)
  observer.scrollToEnd()
  await screen.findByText("That's the whole log.")
  t.match(list.textContent, /The command line — role — a user/, 'an account gone is "a user"')
  t.same(
    api.calls.map((c) => c.query.get('cursor')),
    [null, 'next'],
  )
})

await t.test("a live suspension takes the person's posts off the screen; its end brings them back", async (t) => {
  let suspended = false
  const post = makePost({ _id: 'p1', id: 'p1', username: 'maya', content: 'A post of maya' })
  const { send, api } = await liveApp(t, makeUser({ username: 'guest' }), '/explore', {
    'GET /api/posts': () => ok({ posts: suspended ? [] : [structuredClone(post)], nextCursor: null }),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'GET /api/users/guest': () => ok({ user: makeUser({ username: 'guest' }) }),
  })
  await screen.findByText('A post of maya')
  suspended = true
  send('user.suspended', { userId: maya._id, username: 'maya' })
  await until(() => screen.queryByText('A post of maya') === null)
  t.pass('gone at once, without a refetch')
  suspended = false
  const reads = api.calls.filter((c) => c.path === '/api/posts').length
  send('user.unsuspended', { userId: maya._id, username: 'maya' })
  await screen.findByText('A post of maya')
  t.ok(api.calls.filter((c) => c.path === '/api/posts').length > reads, 'back after a refetch')
})
