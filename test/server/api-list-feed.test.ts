import t from 'tap'
import { signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'

/**
 * A list's timeline in Chirp's own shape (DECISIONS §15, §17): `GET /api/feed?list=` answers the posts of
 * the list's people whom its owner follows, newest first, paged by cursor, with the filters of home; a
 * list of someone else's, or none, is a 404 that shows nothing. On whichever store runs.
 */
const { api, write, newPost } = await buildLiveApi(t)

interface Page {
  posts: { _id: string; username: string; content: string; filtered?: { filter: { title: string } }[] }[]
  nextCursor: string | null
}
const bearerCall = (who: SignedUp, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  api.as(who.token, { method, url, ...(payload ? { payload } : {}) })
const feedOf = async (who: SignedUp, query: string) => {
  const res = await bearerCall(who, 'GET', `/api/feed?${query}`)
  return { status: res.statusCode, page: res.json() as Page }
}

await t.test("a list's feed holds its people's posts alone, newest first, paged, filtered as home", async (t) => {
  const [owner, ana, ben, cy] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  for (const other of [ana, ben, cy])
    t.equal((await write(owner, 'POST', `/api/users/follow/${other.user._id}`)).statusCode, 200)
  const made = await bearerCall(owner, 'POST', '/api/v1/lists', { title: 'Friends' })
  const list = made.json() as { id: string }
  t.equal(
    (
      await bearerCall(owner, 'POST', `/api/v1/lists/${list.id}/accounts`, {
        account_ids: [ana.user._id, ben.user._id],
      })
    ).statusCode,
    200,
  )
  const first = await newPost(ana, 'Ana one')
  await newPost(cy, 'Cy, not on the list')
  const second = await newPost(ben, 'Ben on the finale')
  const third = await newPost(ana, 'Ana two')
  const { status, page } = await feedOf(owner, `list=${list.id}`)
  t.equal(status, 200)
  t.same(
    page.posts.map((post) => post._id),
    [third._id, second._id, first._id],
    "the list's people's posts, newest first; nobody else's",
  )
  const one = await feedOf(owner, `list=${list.id}&limit=2`)
  t.equal(one.page.posts.length, 2)
  t.ok(one.page.nextCursor, 'a next page')
  const rest = await feedOf(owner, `list=${list.id}&limit=2&cursor=${encodeURIComponent(one.page.nextCursor ?? '')}`)
  t.same(
    rest.page.posts.map((post) => post._id),
    [first._id],
    'the next page',
  )
  // The filters of home apply to a list's feed.
  await bearerCall(owner, 'POST', '/api/v2/filters', {
    title: 'Spoilers',
    context: ['home'],
    filter_action: 'warn',
    keywords_attributes: [{ keyword: 'finale', whole_word: true }],
  })
  const filtered = (await feedOf(owner, `list=${list.id}`)).page.posts.find((post) => post._id === second._id)
  t.match(filtered?.filtered, [{ filter: { title: 'Spoilers' } }], 'a warn filter of home marks it')
  // Someone unfollowed leaves the list's feed.
  t.equal((await write(owner, 'POST', `/api/users/unfollow/${ben.user._id}`)).statusCode, 200)
  t.notOk(
    (await feedOf(owner, `list=${list.id}`)).page.posts.some((post) => post._id === second._id),
    'only people the owner follows',
  )
  // Someone else's list, or an unknown one, is not there.
  const { status: theirs, page: nothing } = await feedOf(ana, `list=${list.id}`)
  t.equal(theirs, 404, "another person's list is a 404")
  t.notOk(JSON.stringify(nothing).includes('Ana one'), 'and shows nothing')
  t.equal((await feedOf(owner, 'list=no-such-list')).status, 404)
  t.equal((await feedOf(owner, `list=${'x'.repeat(101)}`)).status, 400, 'a list id too long is a 400')
})
