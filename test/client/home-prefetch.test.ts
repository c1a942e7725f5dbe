import 'global-jsdom/register'
import t from 'tap'
import { lists, loadHome, prefetchHome } from '../../client/state/lists.js'
import { session } from '../../client/state/session.js'
import { makePost, makeUser, ok, resetAll, signInAs, stubApi } from './helpers.js'

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
  t.same(lists.home.ids, ['p1'])
  await loadHome()
  t.equal(feedCalls(api), 2, 'a later first load asks afresh, as it always did')
})

await t.test('a follow made between the early request and the page asks again', async (t) => {
  const api = setup(t)
  prefetchHome()
  session.user?.following.push(makeUser({ username: 'maya', _id: 'id-maya' }))
  await loadHome()
  t.equal(feedCalls(api), 2, 'the feed is asked for again, with the new follow in scope')
})

await t.test('another order chosen in between asks again', async (t) => {
  const api = setup(t)
  prefetchHome()
  lists.sort = 'Oldest'
  await loadHome()
  t.equal(feedCalls(api), 2)
  t.equal(api.calls.at(-1)?.query.get('sort'), 'oldest')
})
