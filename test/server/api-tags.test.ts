import type { Static } from '@sinclair/typebox'
import t, { type Test } from 'tap'
import { FeedReplySchema, type Post } from '../../server/schemas/posts.js'
import { TrendingReplySchema } from '../../server/schemas/search.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'

/** Hashtags (docs/api-contract.md §8): what is a tag, a tag's posts, and the tags trending over the last 7 days. */
const DAY = 24 * 60 * 60 * 1000
const BAD_TAG = 'tag must be 1 to 50 letters, digits or _, and not only digits'

/** An app whose clock the test sets; each reading is a second on from the last, so posts never share an instant. */
async function clockedApp(t: Test, start = Date.parse('2026-03-01T12:00:00.000Z')) {
  const clock = { now: start }
  const api = await buildApiApp(t, { options: { now: () => new Date((clock.now += 1000)) } })
  return { api, clock, author: await signup(api) }
}

const { api, author } = await clockedApp(t)

async function newPost(app: TestApp, who: SignedUp, content: string): Promise<Post> {
  const res = await app.as(who.token, {
    method: 'POST',
    url: '/api/posts',
    headers: { prefer: 'return=minimal' },
    payload: { content },
  })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
const post = (content: string) => newPost(api, author, content)
const byTag = (tag: string, query = '') =>
  api.app.inject({ method: 'GET', url: `/api/posts/tag/${encodeURIComponent(tag)}${query}` })
async function taggedIds(t: Test, tag: string) {
  return expectOk(t, await byTag(tag), 200, FeedReplySchema, `#${tag}`).posts.map((p) => p._id)
}

await t.test('a tag is matched and kept lower case; accents are part of it', async (t) => {
  const [a, b, c] = [
    await post('#Café au lait'),
    await post('Un #CAFÉ noir, #café encore'),
    await post('#cafe sans accent'),
  ]
  t.strictSame(await taggedIds(t, 'café'), [b._id, a._id], 'newest first, each post once')
  t.strictSame(await taggedIds(t, 'CAFÉ'), [b._id, a._id], 'asked in any case')
  t.strictSame(await taggedIds(t, 'cafe'), [c._id], 'a tag without the accent is another tag')
  const body = expectOk(t, await byTag('café'), 200, FeedReplySchema)
  t.equal(body.nextCursor, null)
  t.equal(body.posts[0]?.content, 'Un #CAFÉ noir, #café encore', 'whole posts, as written')
})

await t.test('letters of any script, digits and _ make a tag; digits alone do not', async (t) => {
  const tokyo = await post('夜の #東京')
  const moscow = await post('#Москва зимой')
  const goals = await post('My #2024_goals, attempt #14')
  t.strictSame(await taggedIds(t, '東京'), [tokyo._id])
  t.strictSame(await taggedIds(t, 'москва'), [moscow._id])
  t.strictSame(await taggedIds(t, '2024_goals'), [goals._id])
  for (const tag of ['14', '2024', 'a-b', 'x'.repeat(51), 'two words'])
    expectError(t, await byTag(tag), 400, BAD_TAG, JSON.stringify(tag))
  t.strictSame(await taggedIds(t, 'x'.repeat(50)), [], 'fifty is the longest tag')
})

await t.test('no tag inside a word, a link or one too long', async (t) => {
  await post(`mail#inside, https://example.com/page#anchor and #${'y'.repeat(51)}`)
  t.strictSame(await taggedIds(t, 'inside'), [])
  t.strictSame(await taggedIds(t, 'anchor'), [])
  t.strictSame(await taggedIds(t, 'y'.repeat(50)), [])
})

await t.test('an edit that drops a tag takes the post off it; deleting the post takes it off every tag', async (t) => {
  const p = await post('#temporary #kept')
  await api.as(author.token, {
    method: 'POST',
    url: `/api/posts/edit/${p._id}`,
    payload: { content: 'now only #kept and #added' },
  })
  t.strictSame(await taggedIds(t, 'temporary'), [])
  t.strictSame(await taggedIds(t, 'kept'), [p._id])
  t.strictSame(await taggedIds(t, 'added'), [p._id])
  await api.as(author.token, { method: 'DELETE', url: `/api/posts/${p._id}` })
  t.strictSame(await taggedIds(t, 'kept'), [])
})

await t.test("a comment's tags put its post under them, for as long as the comment holds them", async (t) => {
  const p = await post('A post without tags')
  const commenter = await signup(api)
  const res = await api.as(commenter.token, {
    method: 'POST',
    url: `/api/comments/add/${p._id}`,
    headers: { prefer: 'return=minimal' },
    payload: { text: 'Love it #Sunset' },
  })
  const commentId = (res.json() as { post: Post }).post.comments[0]?._id as string
  t.strictSame(await taggedIds(t, 'sunset'), [p._id])
  await api.as(commenter.token, {
    method: 'POST',
    url: `/api/comments/edit/${p._id}/${commentId}`,
    payload: { text: 'Love it #dusk' },
  })
  t.strictSame(await taggedIds(t, 'sunset'), [], 'edited away')
  t.strictSame(await taggedIds(t, 'dusk'), [p._id], 'and the new one')
  await api.as(commenter.token, { method: 'DELETE', url: `/api/comments/delete/${p._id}/${commentId}` })
  t.strictSame(await taggedIds(t, 'dusk'), [], 'deleting the comment takes the post off')
})

await t.test(
  "a tag's pages follow nextCursor, newest first, without repeats; limit and cursor are checked",
  async (t) => {
    const made: string[] = []
    for (let i = 0; i < 5; i++) made.unshift((await post(`#paged number ${i}`))._id)
    const seen: string[] = []
    let cursor: string | null = null
    for (let page = 0; page < 10; page++) {
      const body: Static<typeof FeedReplySchema> = expectOk(
        t,
        await byTag('paged', `?limit=2${cursor ? `&cursor=${cursor}` : ''}`),
        200,
        FeedReplySchema,
      )
      t.ok(body.posts.length <= 2)
      seen.push(...body.posts.map((p) => p._id))
      cursor = body.nextCursor
      if (cursor === null) break
    }
    t.strictSame(seen, made)
    for (const query of ['?limit=0', '?limit=101', '?cursor=bad!'])
      t.equal((await byTag('paged', query)).statusCode, 400, query)
  },
)

await t.test('trending: the tags of the last 7 days, by how many posts carry each, then by name', async (t) => {
  const start = Date.parse('2026-06-01T12:00:00.000Z')
  const { api: app, clock, author: who } = await clockedApp(t, start)
  const trending = async (query = '') =>
    expectOk(t, await app.app.inject({ method: 'GET', url: `/api/tags/trending${query}` }), 200, TrendingReplySchema)
      .tags
  t.strictSame(await trending(), [], 'no tags yet')

  clock.now = start - 10 * DAY
  for (let i = 0; i < 3; i++) await newPost(app, who, '#old news')
  clock.now = start - 2 * DAY
  await newPost(app, who, '#weekly #both')
  await newPost(app, who, '#weekly')
  clock.now = start
  await newPost(app, who, '#fresh #both #both')
  const gone = await newPost(app, who, '#Both')
  await newPost(app, who, '#zeta #alpha')
  const old = await newPost(app, who, 'no tag')
  clock.now = start - 9 * DAY
  const stale = await newPost(app, who, 'old, no tag')
  clock.now = start
  // A comment of today tags a post of nine days ago: that post used the tag today.
  await app.as(who.token, {
    method: 'POST',
    url: `/api/comments/add/${stale._id}`,
    payload: { text: '#weekly #weekly' },
  })
  await app.as(who.token, { method: 'POST', url: `/api/comments/add/${old._id}`, payload: { text: 'no tag here' } })

  t.strictSame(
    await trending(),
    [
      { tag: 'both', posts: 3 },
      { tag: 'weekly', posts: 3 },
      { tag: 'alpha', posts: 1 },
      { tag: 'fresh', posts: 1 },
      { tag: 'zeta', posts: 1 },
    ],
    "a post counts once for a tag it repeats; a comment's tag counts on the comment's day; posts of 10 days ago count for nothing",
  )
  t.strictSame(await trending('?limit=2'), [
    { tag: 'both', posts: 3 },
    { tag: 'weekly', posts: 3 },
  ])

  await app.as(who.token, { method: 'DELETE', url: `/api/posts/${gone._id}` })
  t.strictSame((await trending('?limit=2'))[1], { tag: 'both', posts: 2 }, 'a deleted post no longer counts')

  clock.now = start + 6 * DAY
  t.strictSame(
    await trending(),
    [
      { tag: 'alpha', posts: 1 },
      { tag: 'both', posts: 1 },
      { tag: 'fresh', posts: 1 },
      { tag: 'weekly', posts: 1 },
      { tag: 'zeta', posts: 1 },
    ],
    'six days on, the posts of eight days ago have left the window; the comment of six days ago has not',
  )
  for (const query of ['?limit=0', '?limit=101', '?limit=many']) {
    const res = await app.app.inject({ method: 'GET', url: `/api/tags/trending${query}` })
    t.equal(res.statusCode, 400, query)
    t.match(res.json(), { errors: [/^limit /] }, `${query}: names limit`)
  }
})
