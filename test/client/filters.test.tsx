import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import { App } from '../../client/app.js'
import type { KeywordFilter } from '../../client/api/filters.js'
import { makePost, makeUser, ok, renderAt, resetAll, sideRoutes, signInAs, stubApi, summary, until } from './helpers.js'
import { liveApp } from './live-app.js'

const me = makeUser({ username: 'ada' })
const quiet = {
  ...sideRoutes(me),
  'GET /api/account/2fa': () => ok({ enabled: false }),
  'GET /api/account/apps': () => ok({ apps: [] }),
}
const type = (label: string | RegExp, value: string, from: HTMLElement = document.body) =>
  fireEvent.change(within(from).getByLabelText(label), { target: { value } })
const axeIds = async (node: Element) => (await axe.run(node)).violations.map((v) => v.id)

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const spoilers: KeywordFilter = {
  id: 'f1',
  title: 'Spoilers',
  context: ['home', 'public'],
  expires_at: null,
  filter_action: 'warn',
  keywords: [{ id: 'k1', keyword: 'finale', whole_word: true }],
}

await t.test('Home: a post a warn filter matches is collapsed until Show anyway', async (t) => {
  signInAs(me)
  const { keywords: _keywords, ...filter } = spoilers
  const match = { filter: { ...filter, filter_action: 'warn' as const }, keyword_matches: ['finale'] }
  const api = stubApi({
    ...quiet,
    'GET /api/feed': () =>
      ok({
        posts: [
          makePost({ _id: 'p1', content: 'The finale was wild', filtered: [match] }),
          makePost({ _id: 'p2', content: 'Lunch was good' }),
        ],
        nextCursor: null,
      }),
  })
  t.teardown(api.restore)
  const view = renderAt('/', <App />)
  const collapsed = await screen.findByRole('article', { name: 'Filtered post by Maya Lin' })
  t.ok(within(collapsed).getByText('Filtered: Spoilers'))
  t.equal(screen.queryByText('The finale was wild'), null, "the post's text is not on the page")
  t.ok(screen.getByText('Lunch was good'), 'a post no filter matches shows as it is')
  t.strictSame(await axeIds(view.container), [], 'axe: the feed with a collapsed post is clean')
  fireEvent.click(within(collapsed).getByRole('button', { name: 'Show anyway: Filtered: Spoilers' }))
  t.ok(await screen.findByText('The finale was wild'), 'shown once asked')
  t.equal(screen.queryByText('Filtered: Spoilers'), null)
})

await t.test('Settings: list, add, edit and delete keyword filters', async (t) => {
  signInAs(me)
  let filters: KeywordFilter[] = [spoilers]
  const api = stubApi({
    ...quiet,
    'GET /api/v2/filters': () => ok(filters),
    'POST /api/v2/filters': (request) => {
      const body = request.body as { title: string; keywords_attributes: { keyword: string }[] }
      if (body.title === 'Spoilers') return { status: 422, body: { error: 'Validation failed: title is taken' } }
      const made: KeywordFilter = {
        id: 'f2',
        title: body.title,
        context: ['home'],
        expires_at: '2026-01-11T12:00:00.000Z',
        filter_action: 'hide',
        keywords: body.keywords_attributes.map((k, at) => ({ id: `n${at}`, keyword: k.keyword, whole_word: false })),
      }
      filters = [...filters, made]
      return ok(made)
    },
    'PUT /api/v2/filters/f1': (request) => {
      const body = request.body as { title: string }
      filters = filters.map((f) => (f.id === 'f1' ? { ...f, title: body.title } : f))
      return ok(filters[0])
    },
    'DELETE /api/v2/filters/f1': () => ok({}),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  const list = await screen.findByRole('list', { name: 'Your filters' })
  t.ok(within(list).getByRole('heading', { name: 'Spoilers' }))
  t.ok(within(list).getByText('finale'))
  t.ok(within(list).getByText(/Warn in home, public · Never expires/))

  const form = screen.getByRole('form', { name: 'New filter' })
  type('Title', 'Spoilers', form)
  type('Keyword 1', 'crypto', form)
  fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }))
  t.ok(await within(form).findByText('Validation failed: title is taken'), "the server's refusal by the form")

  type('Title', 'Coins', form)
  fireEvent.click(within(form).getByRole('button', { name: 'Add keyword' }))
  type('Keyword 2', 'nft', form)
  fireEvent.click(within(form).getByLabelText('Profiles'))
  fireEvent.click(within(form).getByLabelText(/^Hide/))
  fireEvent.change(within(form).getByLabelText('Expires after'), { target: { value: '86400' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }))
  await within(list).findByRole('heading', { name: 'Coins' })
  const sent = api.calls.filter((c) => c.method === 'POST').at(-1)
  t.strictSame(sent?.body, {
    title: 'Coins',
    context: ['home', 'public', 'account'],
    filter_action: 'hide',
    expires_in: 86400,
    keywords_attributes: [
      { keyword: 'crypto', whole_word: true },
      { keyword: 'nft', whole_word: true },
    ],
  })

  fireEvent.click(within(list).getByRole('button', { name: 'Edit Spoilers' }))
  const edit = within(list).getByRole('form', { name: 'Edit filter Spoilers' })
  type('Title', 'Show spoilers', edit)
  fireEvent.click(within(edit).getByRole('button', { name: 'Remove keyword 1' }))
  fireEvent.click(within(edit).getByRole('button', { name: 'Add keyword' }))
  type('Keyword 1', 'episode', edit)
  fireEvent.click(within(edit).getByRole('button', { name: 'Save filter' }))
  await within(list).findByRole('heading', { name: 'Show spoilers' })
  t.strictSame(api.calls.find((c) => c.method === 'PUT')?.body, {
    title: 'Show spoilers',
    context: ['home', 'public'],
    filter_action: 'warn',
    keywords_attributes: [
      { keyword: 'episode', whole_word: true },
      { id: 'k1', keyword: 'finale', whole_word: true, _destroy: true },
    ],
  })
  t.strictSame(
    await axeIds(screen.getByRole('heading', { name: 'Filters' }).closest('section') ?? list),
    [],
    'axe: clean',
  )

  fireEvent.click(within(list).getByRole('button', { name: 'Delete Show spoilers' }))
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete filter?' })
  t.notOk(
    api.calls.some((c) => c.method === 'DELETE'),
    'nothing deleted before the confirmation',
  )
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
  await until(() => within(list).queryByRole('heading', { name: 'Show spoilers' }) === null)
  t.ok(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/v2/filters/f1'))
  t.ok(within(list).getByRole('heading', { name: 'Coins' }), 'the other filter stays')
})

await t.test('Notifications: one a warn filter matches shows the filter, not the words', async (t) => {
  signInAs(me)
  const { keywords: _keywords, ...filter } = { ...spoilers, context: ['notifications'] }
  const match = { filter: { ...filter, filter_action: 'warn' as const }, keyword_matches: ['finale'] }
  const maya = makeUser({ username: 'maya.lin', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' })
  const at = new Date(Date.now() - 60_000).toISOString()
  const api = stubApi({
    ...quiet,
    'GET /api/notifications': () =>
      ok({
        notifications: [
          {
            _id: 'n1',
            type: 'comment',
            actor: summary(maya),
            post: { _id: 'p1', content: 'My post', mediaUrl: '' },
            comment: { _id: 'c1', text: 'The finale was wild' },
            createdAt: at,
            read: true,
            filtered: [match],
          },
        ],
        nextCursor: null,
        unread: 0,
      }),
    'POST /api/notifications/read': () => ok({ unread: 0 }),
  })
  t.teardown(api.restore)
  const view = renderAt('/notifications', <App />)
  t.ok(await screen.findByText('Filtered: Spoilers'), "the filter's title in place of the words")
  t.equal(screen.queryByText('The finale was wild'), null, 'the words are not on the page')
  t.ok(screen.getByRole('link', { name: /Maya Lin/ }), 'the row still leads to the post')
  t.strictSame(await axeIds(view.container), [], 'axe: clean')
})

await t.test('Settings: a filter may apply to notifications', async (t) => {
  signInAs(me)
  const api = stubApi({
    ...quiet,
    'GET /api/v2/filters': () => ok([]),
    'POST /api/v2/filters': () => ok({ ...spoilers, id: 'f2', context: ['home', 'notifications', 'public'] }),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  const form = await screen.findByRole('form', { name: 'New filter' })
  type('Title', 'Spoilers', form)
  type('Keyword 1', 'finale', form)
  fireEvent.click(within(form).getByRole('checkbox', { name: 'Notifications' }))
  fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }))
  await until(() => api.calls.some((c) => c.method === 'POST'))
  t.match(api.calls.find((c) => c.method === 'POST')?.body, { context: ['home', 'notifications', 'public'] })
})

await t.test(
  'Filters changed in another tab or app: the home feed on screen is read again (filters.changed)',
  async (t) => {
    const me = makeUser({ username: 'guest' })
    let content = 'Spoilers for the finale'
    const { send, api } = await liveApp(t, me, '/', {
      ...sideRoutes(me),
      'GET /api/feed': () => ok({ posts: [makePost({ _id: 'p1', content })], nextCursor: null }),
      'GET /api/tags/trending': () => ok({ tags: [] }),
    })
    await screen.findByText('Spoilers for the finale')
    const reads = () => api.calls.filter((call) => call.path === '/api/feed').length
    const before = reads()
    content = 'Nothing to hide'
    send('filters.changed', {})
    await until(() => reads() > before)
    t.ok(await screen.findByText('Nothing to hide'), 'the feed as the new filters shape it')
  },
)
