import 'global-jsdom/register'
import t from 'tap'
import { writeSort } from '../../client/lib/storage.js'
import { requestHomeEarly } from '../../client/state/early-home.js'
import { lists, loadHome, prefetchHome } from '../../client/state/lists.js'
import { session } from '../../client/state/session.js'
import { applyFollow } from '../../client/state/users.js'
import { makePost, makeUser, ok, resetAll, signInAs, stubApi, summary } from './helpers.js'

/** The home feed's first page asked for with the page's code, before the page is drawn (app.tsx). */
t.beforeEach(() => resetAll())
t.afterEach(() => resetAll())

const feedCalls = (api: ReturnType<typeof stubApi>) => api.calls.filter((c) => c.path === '/api/feed').length

function setup(t: { teardown(fn: () => unknown): void }) {
  signInAs(makeUser({ username: 'guest' }))
  const api = stubApi({ 'GET /api/feed': () => ok({ posts: [makePost({ _id: 'p1' })], nextCursor: null }) })
  t.teardown(api.restore)
  return api
}

await t.test("the page's first load takes over the early request instead of asking again", async (t) => {
  const api = setup(t)
  prefetchHome()
  await loadHome()
  t.equal(feedCalls(api), 1, 'one request')
  t.same(lists.home.items, ['p1'])
  await loadHome()
  t.equal(feedCalls(api), 2, 'a later first load asks afresh, as it always did')
})

await t.test('a follow made between the early request and the page asks again', async (t) => {
  const api = setup(t)
  prefetchHome()
  // My follow, as its live event tells it (another tab made it).
  applyFollow(
    { user: summary(makeUser({ username: 'guest' })), followUser: summary(makeUser({ username: 'maya' })) },
    true,
  )
  await loadHome()
  t.equal(feedCalls(api), 2, 'the feed is asked for again, with the new follow in scope')
})

await t.test('a change to my record that is no follow does not', async (t) => {
  const api = setup(t)
  prefetchHome()
  session.user?.followers.push(summary(makeUser({ username: 'maya' })))
  await loadHome()
  t.equal(feedCalls(api), 1, 'the early request is taken')
})

await t.test('another order chosen in between asks again', async (t) => {
  const api = setup(t)
  prefetchHome()
  lists.sort = 'Oldest'
  await loadHome()
  t.equal(feedCalls(api), 2)
  t.equal(api.calls.at(-1)?.query.get('sort'), 'oldest')
})

/** The app starting signed in on the home page asks for the feed from its entry (main.tsx). */
const turn = () => new Promise((resolve) => setTimeout(resolve, 0))

await t.test(
  'started signed in on the home page, the feed is asked for at once and the first load takes it',
  async (t) => {
    const api = setup(t)
    writeSort('Oldest')
    lists.sort = 'Oldest'
    requestHomeEarly('/')
    await turn()
    t.equal(feedCalls(api), 1, 'asked for before any page code ran')
    t.equal(api.calls[0]?.query.get('sort'), 'oldest', 'in the order the reader chose before')
    t.equal(api.calls[0]?.query.get('limit'), '20')
    await loadHome()
    t.equal(feedCalls(api), 1, 'the first load took it over')
    t.same(lists.home.items, ['p1'])
    await loadHome()
    t.equal(feedCalls(api), 2, 'and only once')
  },
)

await t.test('started anywhere else, or signed out, nothing is asked for early', async (t) => {
  const api = setup(t)
  requestHomeEarly('/explore')
  await turn()
  t.equal(feedCalls(api), 0, 'not on another page')
  localStorage.clear()
  requestHomeEarly('/')
  await turn()
  t.equal(feedCalls(api), 0, 'not without a session')
})

await t.test('an early page of another order or another session is not taken', async (t) => {
  const api = setup(t)
  requestHomeEarly('/')
  lists.sort = 'Trending'
  await loadHome()
  t.equal(feedCalls(api), 2, 'the order changed: asked again')
  t.equal(api.calls.at(-1)?.query.get('sort'), 'trending')

  requestHomeEarly('/')
  localStorage.setItem('token', 'someone-else')
  lists.sort = 'Latest'
  await loadHome()
  t.equal(feedCalls(api), 4, "another session never sees the first one's feed")
})

await t.test('an early request that fails and is never taken is not an unhandled rejection', async (t) => {
  signInAs(makeUser({ username: 'guest' }))
  const api = stubApi({ 'GET /api/feed': () => ({ status: 500, body: { errors: ['down'] } }) })
  t.teardown(api.restore)
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => unhandled.push(reason)
  process.on('unhandledRejection', onUnhandled)
  t.teardown(() => process.off('unhandledRejection', onUnhandled))
  requestHomeEarly('/')
  await turn()
  await turn()
  t.same(unhandled, [])
})
