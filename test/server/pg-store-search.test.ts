import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import type { PgStore } from '../../server/store/pg/pg-store.js'
import type { Page, PageRequest, Store, UserSearch } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { textDatabase } from '../helpers/text-database.js'

/**
 * Search, tags and trending on PostgreSQL held to the embedded store's answers: the same database gives
 * the same posts and people, in the same order, page by page, and keeps giving them after edits.
 */
const skip = await skipWithoutPostgres()

const idsOf = (items: readonly { _id: string }[]) => items.map((item) => item._id)

/** Every page of a list, following cursors, as one list of ids. */
async function walk(read: (page: PageRequest) => Promise<Page<{ _id: string }>>, limit: number) {
  const ids: string[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < 100; pages++) {
    const page = await read({ limit, ...(cursor ? { cursor } : {}) })
    ids.push(...idsOf(page.items))
    if (page.nextCursor === null) return ids
    cursor = page.nextCursor
  }
  throw new Error('more than 100 pages')
}

const POST_SEARCHES = [
  ['cafe'],
  ['cafe', 'lait'],
  ['creme'],
  ['東'],
  ['@chloe_b'],
  ['@ada_l'],
  ['@ada_l.'],
  ['tea'],
  ['fine', 'full'],
  ['strasse'],
  ['straße'],
  ['nothing'],
]
const USER_SEARCHES: UserSearch[] = [
  { prefixes: ['ch'] },
  { prefixes: ['ber'] },
  { prefixes: ['chris', 'ber'] },
  { prefixes: ['anna', 'maria'] },
  { prefixes: ['angst'] },
  { prefixes: ['佐'] },
  { prefixes: ['zoe', 'ørs'] },
  { prefixes: ['_'] },
  { prefixes: ['chris', 'ch', 'b', 'ber'] },
  { prefixes: ['b', 'c'] },
  { prefixes: [...'abcdefghijklmnopqrstuvwxyz0123456789'] },
  { prefixes: [], username: 'ch' },
  { prefixes: [], username: 'chris.' },
  { prefixes: [], username: 'ada_' },
  { prefixes: [], username: '' },
]
const TAGS = ['café', 'cafe', '東京', 'москва', 'tea_time', '2024', '14', 'anchor', 'trend', 'edited']

async function compare(t: Test, embedded: Store, pg: Store, when: string) {
  for (const terms of POST_SEARCHES) {
    const whole = idsOf((await embedded.searchPosts(terms, {})).items)
    t.strictSame(idsOf((await pg.searchPosts(terms, {})).items), whole, `${when}: posts with ${terms.join(' ')}`)
    t.strictSame(await walk((page) => pg.searchPosts(terms, page), 2), whole, `${when}: ${terms.join(' ')}, 2 a page`)
  }
  for (const search of USER_SEARCHES) {
    const label = search.username !== undefined ? `@${search.username}` : search.prefixes.join(' ')
    const whole = idsOf((await embedded.searchUsers(search, {})).items)
    t.strictSame(idsOf((await pg.searchUsers(search, {})).items), whole, `${when}: people ${label}`)
    t.strictSame(await walk((page) => pg.searchUsers(search, page), 1), whole, `${when}: people ${label}, 1 a page`)
  }
  for (const tag of TAGS) {
    const whole = idsOf((await embedded.listTaggedPosts(tag, {})).items)
    t.strictSame(idsOf((await pg.listTaggedPosts(tag, {})).items), whole, `${when}: #${tag}`)
    t.strictSame(await walk((page) => pg.listTaggedPosts(tag, page), 2), whole, `${when}: #${tag}, 2 a page`)
  }
  for (const since of [
    '2026-01-01T00:00:00.000Z',
    '2026-01-14T00:00:00.000Z',
    '2026-01-16T12:00:00.000Z',
    '2026-02-15T00:00:00.000Z',
    '2027-01-01T00:00:00.000Z',
  ]) {
    t.strictSame(
      await pg.trendingTags(since, 100),
      await embedded.trendingTags(since, 100),
      `${when}: trending since ${since}`,
    )
    t.strictSame(
      await pg.trendingTags(since, 2),
      await embedded.trendingTags(since, 2),
      `${when}: the top 2 since ${since}`,
    )
  }
}

await t.test('search, tags and trending read the same on both stores, before and after edits', { skip }, async (t) => {
  const database = textDatabase()
  const [embedded, pg] = (await openBothStores(t, database)).map((opened) => opened.store) as [Store, Store]
  await compare(t, embedded, pg, 'as loaded')

  const cafes = (await embedded.listTaggedPosts('café', {})).items
  t.ok(cafes.length >= 3, 'the database holds tagged posts')
  t.ok(
    (await embedded.searchPosts(['cafe', 'lait'], {})).items.every((post) => /café au lait/.test(post.content)),
    'every word must be there',
  )
  t.ok(
    (await embedded.searchUsers({ prefixes: ['ber'] }, {})).items.every((user) => /^B/.test(user.lastName)),
    'names begin with it',
  )

  const [first, second] = cafes as [(typeof cafes)[number], (typeof cafes)[number]]
  const chris = database.users[1]?._id as string
  const commented = database.posts.find((post) => post.comments.length === 2) as (typeof database.posts)[number]
  const [kept, dropped] = commented.comments.map((comment) => comment._id) as [string, string]
  const fresh = {
    _id: randomUUID(),
    authorId: chris,
    text: 'late #Trend',
    upvotedBy: [],
    downvotedBy: [],
    createdAt: '2026-03-01T00:00:00.000Z',
    updatedAt: '2026-03-01T00:00:00.000Z',
  }
  for (const store of [embedded, pg]) {
    await store.transaction(async (tx) => {
      await tx.updatePost(
        first._id,
        { content: 'now about #tea_time only, @chris.b', mediaUrl: first.mediaUrl, type: first.type },
        '2026-02-01T00:00:00.000Z',
      )
      await tx.deletePost(second._id)
      await tx.updateProfile(chris, { firstName: 'Christophe', lastName: 'Żuławski' }, '2026-02-01T00:00:00.000Z')
      await tx.addComment(commented._id, fresh)
      await tx.updateComment(commented._id, kept, 'now #edited', '2026-03-02T00:00:00.000Z')
      await tx.deleteComment(commented._id, dropped)
    })
  }
  await compare(t, embedded, pg, 'after edits')
  t.strictSame(
    idsOf((await pg.searchUsers({ prefixes: ['christ', 'zuł'] }, {})).items),
    [chris],
    'a new name is found by (ł has no accent to drop)',
  )
  t.strictSame(idsOf((await pg.searchUsers({ prefixes: ['bernard'] }, {})).items), [], 'and the old one no more')
  t.strictSame(
    idsOf((await pg.listTaggedPosts('trend', {})).items),
    [commented._id],
    "a comment's tag puts its post under it",
  )
  t.strictSame(
    await pg.trendingTags('2026-02-28T00:00:00.000Z', 10),
    [{ tag: 'trend', posts: 1 }],
    'counted when the comment was written',
  )
})

await t.test('a people search is one statement of one shape, however many words it holds', { skip }, async (t) => {
  const database = textDatabase()
  const pg = (await openBothStores(t, database))[1]?.store as PgStore
  const statements: string[] = []
  pg.sql.options.debug = (_connection, query) => void statements.push(query)
  t.teardown(() => void (pg.sql.options.debug = false))
  const shapeOf = async (prefixes: string[]) => {
    statements.length = 0
    await pg.searchUsers({ prefixes }, { limit: 5 })
    t.equal(statements.length, 1, `${prefixes.length} words: one statement`)
    return statements[0]
  }
  const two = await shapeOf(['ber', 'ch'])
  t.equal(await shapeOf([...'abcdefghijklmnopqrstuvwxyz0123456789']), two, '36 words: the same statement as 2')
})
