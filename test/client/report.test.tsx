import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { PostItem } from '../../client/pages/post-item.js'
import { ProfilePage } from '../../client/pages/profile-page.js'
import { postCache } from '../../client/state/post-cache.js'
import { toasts } from '../../client/state/toasts.js'
import { fail, makeComment, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

/** Report in the post, comment and profile menus: a short dialog, a thank-you, and refusals in plain words. */
t.beforeEach(resetAll)
t.afterEach(() => {
  cleanup()
  resetAll()
})

const report = { report: { _id: 'r1' } }

function openPostReport(t: { teardown(fn: () => unknown): void }, routes: Parameters<typeof stubApi>[0]) {
  const api = stubApi(routes)
  t.teardown(api.restore)
  signInAs(makeUser({ username: 'guest' }))
  postCache.byId.p1 = makePost({ _id: 'p1', id: 'p1', username: 'maya', content: 'from maya' })
  renderAt('/', <PostItem postId="p1" />)
  fireEvent.click(screen.getByRole('button', { name: 'Post options' }))
  fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Report post' }))
  return { api, dialog: screen.getByRole('dialog', { name: 'Report this post' }) }
}

await t.test('a post is reported with a category and an optional comment, and the reporter is thanked', async (t) => {
  const { api, dialog } = openPostReport(t, { 'POST /api/reports': () => ({ status: 201, body: report }) })
  const group = within(dialog).getByRole('group', { name: 'Why are you reporting this post?' })
  const radios = within(group).getAllByRole('radio')
  t.equal(radios.length, 4, 'four categories')
  const send = within(dialog).getByRole('button', { name: 'Send report' })
  t.ok((send as HTMLButtonElement).disabled, 'nothing to send before a category is chosen')
  const spam = within(group).getByRole('radio', { name: /Spam/ })
  t.match(spam.getAttribute('aria-describedby'), /./, 'each category has a plain description')
  fireEvent.click(spam)
  const box = within(dialog).getByRole('textbox', { name: /Anything a moderator should know/ })
  t.equal(box.getAttribute('maxlength'), '1000')
  fireEvent.change(box, { target: { value: 'sells pills' } })
  t.ok(within(dialog).getByText('11 / 1,000 characters'), 'the counter follows the comment')
  fireEvent.click(send)
  await until(() => screen.queryByRole('dialog') === null)
  t.same(
    api.calls.map((call) => [call.method, call.path, call.body]),
    [['POST', '/api/reports', { targetType: 'post', targetId: 'p1', category: 'spam', comment: 'sells pills' }]],
  )
  t.ok(toasts.items.some((toast) => toast.kind === 'success' && toast.text.startsWith('Thanks, your report was sent.')))
})

await t.test('Cancel sends nothing; my own post offers no Report', async (t) => {
  const { api, dialog } = openPostReport(t, {})
  fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
  t.equal(screen.queryByRole('dialog'), null)
  t.equal(api.calls.length, 0)
  cleanup()
  postCache.byId.p2 = makePost({ _id: 'p2', id: 'p2', username: 'guest', content: 'mine' })
  renderAt('/', <PostItem postId="p2" />)
  fireEvent.click(screen.getByRole('button', { name: 'Post options' }))
  t.equal(within(screen.getByRole('menu')).queryByRole('menuitem', { name: /Report/ }), null)
})

await t.test('a refusal is worded by its code, and too many reports says how long to wait', async (t) => {
  let refusal = fail(400, 'You cannot report yourself or your own content.')
  const { dialog } = openPostReport(t, { 'POST /api/reports': () => refusal })
  fireEvent.click(within(dialog).getByRole('radio', { name: /Abuse/ }))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
  await until(() => toasts.items.length > 0)
  t.equal(toasts.items[0]?.text, "You can't report yourself or your own posts and comments.")
  t.ok(screen.getByRole('dialog'), 'the dialog stays open to try again')
  refusal = { ...fail(429, 'Too many requests, please try again later.'), headers: { 'retry-after': '120' } }
  fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
  await until(() => toasts.items.length > 1)
  t.match(
    toasts.items[1]?.text,
    /Couldn't send this report: too many actions in a short time\. Try again in 2 minutes\./,
  )
})

await t.test('a comment is reported with its post', async (t) => {
  const api = stubApi({
    'GET /api/comments/p3': () => ok({ comments: [makeComment('from maya', { _id: 'c1' })], nextCursor: null }),
    'POST /api/reports': () => ({ status: 201, body: report }),
  })
  t.teardown(api.restore)
  signInAs(makeUser({ username: 'guest' }))
  postCache.byId.p3 = makePost({ _id: 'p3', id: 'p3', username: 'ada', content: 'from ada' })
  renderAt('/', <PostItem postId="p3" detail />)
  const region = await screen.findByRole('region', { name: 'Comments' })
  await within(region).findByText('from maya')
  fireEvent.click(within(region).getByRole('button', { name: 'Comment options' }))
  fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Report comment' }))
  const dialog = screen.getByRole('dialog', { name: 'Report this comment' })
  fireEvent.click(within(dialog).getByRole('radio', { name: /Something else/ }))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
  await until(() => api.calls.some((call) => call.method === 'POST'))
  t.same(api.calls.find((call) => call.method === 'POST')?.body, {
    targetType: 'comment',
    targetId: 'c1',
    postId: 'p3',
    category: 'other',
  })
})

await t.test('a person is reported from their profile menu', async (t) => {
  const maya = makeUser({ username: 'maya', _id: 'id-maya' })
  const api = stubApi({
    'GET /api/users/maya': () => ok({ user: maya }),
    'GET /api/posts/user/maya': () => ok({ posts: [], nextCursor: null }),
    'POST /api/reports': () => ({ status: 201, body: report }),
  })
  t.teardown(api.restore)
  signInAs(makeUser({ username: 'guest' }))
  renderAt('/profile/maya', <ProfilePage username="maya" />)
  fireEvent.click(await screen.findByRole('button', { name: 'Profile options' }))
  fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Report @maya' }))
  const dialog = screen.getByRole('dialog', { name: 'Report this account' })
  fireEvent.click(within(dialog).getByRole('radio', { name: /Spam/ }))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
  await until(() => api.calls.some((call) => call.method === 'POST'))
  t.same(api.calls.find((call) => call.method === 'POST')?.body, {
    targetType: 'user',
    targetId: 'id-maya',
    category: 'spam',
  })
})
