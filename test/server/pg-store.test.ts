import { randomUUID } from 'node:crypto'
import { createLocalMediaStorage } from '../../server/media/local-media-storage.js'
import path from 'node:path'
import t, { type Test } from 'tap'
import { buildSeed } from '../../server/seed/index.js'
import { encodeCursor } from '../../server/store/cursor.js'
import type { Database, PostQuery, Store } from '../../server/store/types.js'
import { tempDataDir } from '../helpers/app.js'
import { openBothStores, openPgStore } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * PostgreSQL held to the embedded store's contract: the same database read back gives the same records
 * and the same pages. Writes are in pg-store-writes.test.ts, races in pg-store-concurrency.test.ts.
 */
const skip = await skipWithoutPostgres()

const idsOf = (items: readonly { _id: string }[]) => items.map((item) => item._id)

async function compareReads(t: Test, database: Database) {
  const [embedded, pg] = (await openBothStores(t, database)).map((opened) => opened.store) as [Store, Store]
  const userIds = database.users.map((user) => user._id)
  const postIds = database.posts.map((post) => post._id)
  const asked = [...userIds, userIds[0] as string, randomUUID(), 'not-a-uuid', ...[...userIds].reverse()]
  t.strictSame(
    await pg.getUsers(asked),
    await embedded.getUsers(asked),
    'users, in the order asked, repeats kept, unknown skipped',
  )
  t.strictSame(await pg.getUsers(userIds), database.users, 'the very records the database holds')
  const askedPosts = [...postIds, randomUUID(), postIds[2] as string, 'x']
  t.strictSame(await pg.getPosts(askedPosts), await embedded.getPosts(askedPosts), 'posts likewise')
  t.strictSame(await pg.getPosts(postIds), database.posts)
  for (const user of database.users) {
    t.strictSame(await pg.getUserByUsername(user.username.toUpperCase()), user, `${user.username} by name, any case`)
  }
  t.strictSame(await pg.getPost(postIds[1] as string), await embedded.getPost(postIds[1] as string))
  for (const unknown of [randomUUID(), 'p1', '', 'A'.repeat(36)]) {
    t.equal(await pg.getUser(unknown), undefined, `no user ${JSON.stringify(unknown)}`)
    t.equal(await pg.getPost(unknown), undefined, `no post ${JSON.stringify(unknown)}`)
  }
  t.equal(await pg.getUserByUsername('nobody_here'), undefined)
  for (const id of userIds)
    t.strictSame(await pg.suggestUsers(id, 4), await embedded.suggestUsers(id, 4), 'who to follow')
}

await t.test('reads rebuild the embedded store records from the seed', { skip }, async (t) => {
  await compareReads(t, await buildSeed(createLocalMediaStorage(path.join(await tempDataDir(t), 'media'))))
})

await t.test(
  'reads rebuild every order of a database with ties, dislikes, votes and bookmarks',
  { skip },
  async (t) => {
    await compareReads(t, uuidDatabase())
  },
)

/** Every page of a list, following cursors, as one list of ids. */
async function walk(
  read: (cursor: string | undefined) => Promise<{ items: { _id: string }[]; nextCursor: string | null }>,
) {
  const ids: string[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < 100; pages++) {
    const page = await read(cursor)
    ids.push(...idsOf(page.items))
    if (page.nextCursor === null) return ids
    cursor = page.nextCursor
  }
  throw new Error('more than 100 pages')
}

await t.test(
  'pages follow the same keysets as the embedded store, with no repeats and no gaps',
  { skip },
  async (t) => {
    const database = uuidDatabase()
    const [embedded, pg] = (await openBothStores(t, database)).map((opened) => opened.store) as [Store, Store]
    const authors = [database.users[0]?._id, database.users[3]?._id, 'not-a-uuid'] as string[]
    const queries: PostQuery[] = ['latest', 'oldest', 'trending'].flatMap((sort) => [
      { sort: sort as PostQuery['sort'] },
      { sort: sort as PostQuery['sort'], authorIds: authors },
    ])
    for (const query of queries) {
      const label = `${query.sort}${query.authorIds ? ' by authors' : ''}`
      const whole = idsOf((await embedded.listPosts(query)).items)
      t.strictSame(idsOf((await pg.listPosts(query)).items), whole, `${label}: the whole list`)
      for (const limit of [1, 4, 7]) {
        const paged = await walk((cursor) => pg.listPosts({ ...query, limit, ...(cursor ? { cursor } : {}) }))
        t.strictSame(paged, whole, `${label}, ${limit} a page: every post once, in order`)
      }
    }
    t.strictSame(
      await walk((cursor) => pg.listUsers({ limit: 3, ...(cursor ? { cursor } : {}) })),
      idsOf((await embedded.listUsers({})).items),
      'users, oldest account first',
    )
    for (const user of database.users.slice(0, 3)) {
      const whole = idsOf((await embedded.listBookmarks(user._id, {})).items)
      t.strictSame(idsOf((await pg.listBookmarks(user._id, {})).items), whole, 'bookmarks, newest first')
      t.strictSame(
        await walk((cursor) => pg.listBookmarks(user._id, { limit: 2, ...(cursor ? { cursor } : {}) })),
        whole,
      )
    }
    const last = await pg.listPosts({ sort: 'latest', limit: database.posts.length })
    t.equal(last.nextCursor, null, 'a page that holds the rest has no next cursor')
    const first = await pg.listPosts({ sort: 'latest', limit: 2 })
    t.strictSame(
      first.nextCursor,
      (await embedded.listPosts({ sort: 'latest', limit: 2 })).nextCursor,
      'cursors look alike on both stores',
    )
  },
)

await t.test('a malformed cursor is a 400 that names the cursor, never a failed query', { skip }, async (t) => {
  const pg = await openPgStore(t, uuidDatabase({ users: 3, posts: 4 }))
  const user = (await pg.listUsers({})).items[0]?._id as string
  const bad: [string, () => Promise<unknown>][] = [
    ['not base64 JSON', () => pg.listPosts({ sort: 'latest', limit: 2, cursor: 'nonsense' })],
    [
      'a date that is none',
      () => pg.listPosts({ sort: 'latest', limit: 2, cursor: encodeCursor(['yesterday', randomUUID()]) }),
    ],
    [
      'an id that is no uuid',
      () => pg.listPosts({ sort: 'oldest', limit: 2, cursor: encodeCursor([new Date().toISOString(), 'p1']) }),
    ],
    [
      'a time key for trending',
      () =>
        pg.listPosts({ sort: 'trending', limit: 2, cursor: encodeCursor([new Date().toISOString(), randomUUID()]) }),
    ],
    [
      'a like count past int',
      () => pg.listPosts({ sort: 'trending', cursor: encodeCursor([2 ** 40, new Date().toISOString(), randomUUID()]) }),
    ],
    [
      'a fractional like count',
      () => pg.listPosts({ sort: 'trending', cursor: encodeCursor([1.5, new Date().toISOString(), randomUUID()]) }),
    ],
    ['a user key of numbers', () => pg.listUsers({ limit: 1, cursor: encodeCursor([1, 2]) })],
    ['a negative bookmark place', () => pg.listBookmarks(user, { limit: 1, cursor: encodeCursor([-1]) })],
    ['a bookmark place that is text', () => pg.listBookmarks(user, { limit: 1, cursor: encodeCursor(['7']) })],
  ]
  for (const [label, read] of bad)
    await t.rejects(read(), { name: 'AppError', statusCode: 400, message: 'cursor is invalid' }, label)
})
