import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import type { PeopleList } from '../../client/api/lists.js'
import { App } from '../../client/app.js'
import { makePost, ok, renderAt, resetAll, sideRoutes, signInAs, stubApi, summary, until } from './helpers.js'
import { liveApp, samples } from './live-app.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const axeIds = async (node: Element) => (await axe.run(node)).violations.map((v) => v.id)

let { me, maya, theo } = samples()
t.beforeEach(() => {
  ;({ me, maya, theo } = samples())
  me.following = [summary(maya), summary(theo)]
})

const friends: PeopleList = { id: 'l1', title: 'Friends', replies_policy: 'list', exclusive: false }
const account = (user: typeof maya) => ({
  id: user._id,
  username: user.username,
  acct: user.username,
  display_name: `${user.firstName} ${user.lastName}`,
  avatar: user.avatarURL,
})

await t.test('Lists: the navigation leads there; a new list is made and opened', async (t) => {
  signInAs(me)
  let lists: PeopleList[] = []
  const api = stubApi({
    ...sideRoutes(me),
    'GET /api/v1/lists': () => ok(lists),
    'POST /api/v1/lists': (request) => {
      const made = { ...friends, ...(request.body as object), id: 'l1' }
      lists = [made]
      return ok(made)
    },
    'GET /api/v1/lists/l1/accounts': () => ok([]),
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
  })
  t.teardown(api.restore)
  const view = renderAt('/lists', <App />)
  const nav = await screen.findByRole('navigation', { name: 'Main' })
  t.equal(within(nav).getByRole('link', { name: 'Lists' }).getAttribute('href'), '/lists')
  t.ok(await screen.findByText(/You have no lists yet/))
  t.strictSame(await axeIds(view.container), [], 'axe: the lists page is clean')
  const form = screen.getByRole('form', { name: 'New list' })
  fireEvent.change(within(form).getByLabelText('List name'), { target: { value: 'Friends' } })
  fireEvent.change(within(form).getByLabelText('Show replies'), { target: { value: 'none' } })
  fireEvent.click(within(form).getByLabelText(/not on Home/))
  fireEvent.click(within(form).getByRole('button', { name: 'Create list' }))
  t.ok(await screen.findByRole('heading', { name: 'Friends', level: 1 }), "the new list's page")
  t.strictSame(api.calls.find((c) => c.method === 'POST')?.body, {
    title: 'Friends',
    replies_policy: 'none',
    exclusive: true,
  })
  await until(() => api.calls.some((c) => c.path === '/api/feed' && c.query.get('list') === 'l1'))
  t.ok(await screen.findByText('No posts from the people on this list yet.'))
})

await t.test("A list's page: its timeline; rename, add and remove people, delete", async (t) => {
  signInAs(me)
  let members = [account(maya)]
  let lists = [friends]
  const api = stubApi({
    ...sideRoutes(me),
    'GET /api/v1/lists': () => ok(lists),
    'GET /api/v1/lists/l1/accounts': () => ok(members),
    'POST /api/v1/lists/l1/accounts': () => {
      members = [...members, account(theo)]
      return ok({})
    },
    'DELETE /api/v1/lists/l1/accounts': () => {
      members = members.filter((m) => m.id !== maya._id)
      return ok({})
    },
    'PUT /api/v1/lists/l1': (request) => {
      lists = [{ ...friends, ...(request.body as object) }]
      return ok(lists[0])
    },
    'DELETE /api/v1/lists/l1': () => {
      lists = []
      return ok({})
    },
    'GET /api/feed': () => ok({ posts: [makePost({ _id: 'p9', content: 'From the list' })], nextCursor: null }),
  })
  t.teardown(api.restore)
  const view = renderAt('/lists/l1', <App />)
  t.ok(await screen.findByText('From the list'), "the list's timeline")
  fireEvent.click(screen.getByRole('button', { name: 'Edit list' }))
  const onList = await screen.findByRole('list', { name: 'On this list' })
  t.ok(within(onList).getByText('Maya Lin'))
  const toAdd = screen.getByRole('list', { name: 'People you follow' })
  t.strictSame(await axeIds(view.container), [], 'axe: the list and its settings are clean')

  fireEvent.click(within(toAdd).getByRole('button', { name: 'Add Theo Park to the list' }))
  await until(() => api.calls.some((c) => c.method === 'POST'))
  t.strictSame(api.calls.find((c) => c.method === 'POST')?.body, { account_ids: ['id-theo'] })
  t.ok(await within(screen.getByRole('list', { name: 'On this list' })).findByText('Theo Park'), 'Theo is on it')

  fireEvent.click(screen.getByRole('button', { name: 'Remove Maya Lin from the list' }))
  await until(() => api.calls.some((c) => c.method === 'DELETE'))
  t.strictSame(api.calls.find((c) => c.method === 'DELETE')?.body, { account_ids: ['id-maya'] })
  t.ok(await within(screen.getByRole('list', { name: 'People you follow' })).findByText('Maya Lin'))

  const form = screen.getByRole('form', { name: 'Edit list Friends' })
  fireEvent.change(within(form).getByLabelText('List name'), { target: { value: 'Close friends' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Save list' }))
  t.ok(await screen.findByRole('heading', { name: 'Close friends', level: 1 }), 'renamed')
  t.match(api.calls.find((c) => c.method === 'PUT')?.body, { title: 'Close friends', replies_policy: 'list' })

  fireEvent.click(screen.getByRole('button', { name: 'Delete list' }))
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete this list?' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
  t.ok(await screen.findByRole('heading', { name: 'Lists', level: 1 }), 'back to the lists')
  t.ok(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/lists/l1'))
})

await t.test("A list's timeline takes its people's new posts live, and nobody else's", async (t) => {
  me.following = [summary(maya), summary(theo)]
  const { send } = await liveApp(t, me, '/lists/l1', {
    ...sideRoutes(me),
    'GET /api/v1/lists': () => ok([friends]),
    'GET /api/v1/lists/l1/accounts': () => ok([account(maya)]),
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
  })
  await screen.findByText('No posts from the people on this list yet.')
  send('post.created', { post: makePost({ _id: 'p-theo', content: 'Theo, not on the list', username: 'theo' }) })
  send('post.created', { post: makePost({ _id: 'p-maya', content: 'Maya, live on the list', username: 'maya' }) })
  t.ok(await screen.findByText('Maya, live on the list'), 'on top at once')
  t.equal(screen.queryByText('Theo, not on the list'), null, 'not on this list')
})

await t.test('A list changed in another tab or app is read again here (lists.changed)', async (t) => {
  let members = [account(maya)]
  let title = 'Friends'
  const { send, api } = await liveApp(t, me, '/lists/l1', {
    ...sideRoutes(me),
    'GET /api/v1/lists': () => ok([{ ...friends, title }]),
    'GET /api/v1/lists/l1': () => ok({ ...friends, title }),
    'GET /api/v1/lists/l1/accounts': () => ok(members),
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
  })
  await screen.findByText('No posts from the people on this list yet.')
  const reads = () => api.calls.filter((call) => call.path === '/api/v1/lists/l1/accounts').length
  const before = reads()
  members = [account(maya), account(theo)]
  title = 'Close friends'
  send('lists.changed', {})
  await until(() => reads() > before)
  t.pass("the open list's people are read again")
})
