import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import type { User } from '../../client/api/types.js'
import { fail, makeUser, ok, renderAt, resetAll, signInAs, stubApi, summary, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
  delete (window as { matchMedia?: unknown }).matchMedia
})

/** A window as narrow as a phone's: no query for a wider one matches. */
function phoneWidth(): void {
  window.matchMedia = ((query: string) => ({
    matches: !/min-width/.test(query),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  })) as unknown as typeof window.matchMedia
}

const people = ['ada', 'bo', 'cy', 'di', 'ed', 'flo', 'gus'].map((name) =>
  makeUser({ username: name, firstName: name.toUpperCase(), lastName: 'Person', _id: `id-${name}` }),
)

/**
 * Signed in as guest over a server that suggests whoever guest does not follow, five at a time, as
 * GET /api/users/suggestions does, and follows whoever is asked.
 */
function community(t: { teardown(fn: () => unknown): void }, { dismissal }: { dismissal?: 'fails' | 'gone' } = {}) {
  const me = makeUser({ username: 'guest' })
  signInAs(me)
  let following: User[] = []
  const dismissed = new Set<string>()
  const follows = Object.fromEntries(
    people.map((person) => [
      `POST /api/users/follow/${person._id}`,
      () => {
        following = [...following, person]
        return ok({ user: { ...me, following: following.map(summary) }, followUser: person })
      },
    ]),
  )
  const api = stubApi({
    'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'GET /api/tags/trending': () =>
      ok({
        tags: [
          { tag: 'tea', posts: 3 },
          { tag: 'books', posts: 1 },
        ],
      }),
    'GET /api/users/suggestions': () =>
      ok({ users: people.filter((p) => !following.includes(p) && !dismissed.has(p._id)).slice(0, 5) }),
    ...follows,
    ...Object.fromEntries(
      people.map((person) => [
        `DELETE /api/v1/suggestions/${person._id}`,
        () => {
          if (dismissal === 'fails') return fail(500, 'Internal server error')
          if (dismissal === 'gone') {
            dismissed.add(person._id)
            return { status: 404, body: { error: 'Record not found' } }
          }
          dismissed.add(person._id)
          return ok({})
        },
      ]),
    ),
  })
  t.teardown(api.restore)
  return api
}

const whoToFollow = async () => (await screen.findByRole('heading', { name: 'Who to follow' })).closest('section')!
const offered = (panel: HTMLElement) =>
  within(panel)
    .queryAllByRole('button', { name: /^Follow / })
    .map((b) => b.getAttribute('aria-label'))

await t.test(
  "a phone's Explore offers what is trending and who to follow; a follow brings the next person",
  async (t) => {
    phoneWidth()
    community(t)
    renderAt('/explore', <App />)
    const trending = await screen.findByRole('region', { name: 'Trending' })
    t.equal((await within(trending).findByRole('link', { name: /#tea/ })).getAttribute('href'), '/tag/tea')
    const panel = await whoToFollow()
    await until(() => offered(panel).length === 3)
    t.same(offered(panel), ['Follow ADA Person', 'Follow BO Person', 'Follow CY Person'], 'three of them, on a phone')

    fireEvent.click(within(panel).getByRole('button', { name: 'Follow ADA Person' }))
    await until(() => offered(panel).includes('Follow DI Person'))
    t.same(offered(panel), ['Follow BO Person', 'Follow CY Person', 'Follow DI Person'], 'the next one takes the place')
    for (const name of ['BO', 'CY', 'DI']) {
      fireEvent.click(await within(panel).findByRole('button', { name: `Follow ${name} Person` }))
      await until(() => !offered(panel).includes(`Follow ${name} Person`))
    }
    await until(() => offered(panel).length === 3)
    t.same(offered(panel), ['Follow ED Person', 'Follow FLO Person', 'Follow GUS Person'], 'refilled from the server')
    t.equal(screen.queryByText('No more suggestions!'), null, 'never empty while there are people left')
  },
)

await t.test('on a desktop the side panel has them, and Explore does not repeat them', async (t) => {
  community(t)
  renderAt('/explore', <App />)
  const panel = await whoToFollow()
  await until(() => offered(panel).length === 5)
  t.equal(screen.getAllByRole('heading', { name: 'Who to follow' }).length, 1)
  t.equal(screen.getAllByRole('heading', { name: 'Trending' }).length, 1)
})

await t.test("Don't suggest takes someone out of the panel and asks the server not to offer them again", async (t) => {
  const api = community(t)
  renderAt('/explore', <App />)
  const panel = await whoToFollow()
  await until(() => offered(panel).length === 5)
  fireEvent.click(within(panel).getByRole('button', { name: "Don't suggest BO Person" }))
  await until(() => !offered(panel).includes('Follow BO Person'))
  t.same(
    api.calls.filter((call) => call.method === 'DELETE').map((call) => call.path),
    ['/api/v1/suggestions/id-bo'],
    "through Mastodon's route",
  )
  await until(() => offered(panel).length === 5)
  t.same(
    offered(panel),
    ['Follow ADA Person', 'Follow CY Person', 'Follow DI Person', 'Follow ED Person', 'Follow FLO Person'],
    'the next one takes the place',
  )
})

await t.test('a dismissal that fails puts the person back where they were, and offers to try again', async (t) => {
  community(t, { dismissal: 'fails' })
  renderAt('/explore', <App />)
  const panel = await whoToFollow()
  await until(() => offered(panel).length === 5)
  fireEvent.click(within(panel).getByRole('button', { name: "Don't suggest CY Person" }))
  const toast = await screen.findByRole('alert')
  t.ok(within(toast).getByRole('button', { name: 'Try again' }), toast.textContent ?? '')
  t.same(offered(panel), [
    'Follow ADA Person',
    'Follow BO Person',
    'Follow CY Person',
    'Follow DI Person',
    'Follow ED Person',
  ])
})

await t.test('dismissing someone whose account is gone just leaves them out', async (t) => {
  community(t, { dismissal: 'gone' })
  renderAt('/explore', <App />)
  const panel = await whoToFollow()
  await until(() => offered(panel).length === 5)
  fireEvent.click(within(panel).getByRole('button', { name: "Don't suggest DI Person" }))
  await until(() => offered(panel).includes('Follow FLO Person'))
  t.notOk(offered(panel).includes('Follow DI Person'), 'not put back')
  t.equal(screen.queryByRole('alert'), null, 'no error')
})
