import t from 'tap'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { PgStore } from '../../server/store/pg/pg-store.js'
import type { Database, Page, PageRequest, Store, StoreTx } from '../../server/store/types.js'
import { tempDataDir } from '../helpers/app.js'
import { TEST_DATABASE_URL, skipWithoutPostgres, testSchema } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * A person's bookmarks, likes, blocks and mutes in a database written before the embedded store kept
 * the places of their entries (store/list-places.ts), on both stores: a cursor handed out from it goes
 * on where it left off after an entry not yet shown is taken back and the store is opened again, with
 * an entry made after that (newer than the cursor) on no later page.
 */
const skip = await skipWithoutPostgres()
const PAGE = 3
const AT = '2026-03-01T00:00:00.000Z'

/** User 0 likes posts 0 to 6, bookmarks posts 7 to 13, blocks users 1 to 7 and mutes users 8 to 14. */
function listsDatabase(): Database {
  const base = uuidDatabase({ users: 17, posts: 16 })
  const posts = [...base.posts].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id))
  const ownerId = base.users[0]?._id as string
  const liked = posts.map((post, i) =>
    i < 7 && !post.likedBy.includes(ownerId)
      ? {
          ...post,
          likedBy: [...post.likedBy, ownerId],
          dislikedBy: post.dislikedBy.filter((id) => id !== ownerId),
          likeCount: post.likedBy.length + 1,
        }
      : post,
  )
  const users = base.users.map((user, i) =>
    i === 0
      ? {
          ...user,
          bookmarks: posts.slice(7, 14).map((post) => post._id),
          blocking: base.users.slice(1, 8).map((other) => other._id),
          muting: base.users.slice(8, 15).map((other) => ({ userId: other._id })),
        }
      : user,
  )
  return { ...base, users, posts: liked }
}

const database = listsDatabase()
const owner = database.users[0]?._id as string
const userId = (i: number) => database.users[i]?._id as string
const postId = (i: number) => database.posts[i]?._id as string

/** The ids of a page and the cursor of the next. */
const idsOf = <T>(page: Page<T>, id: (item: T) => string) => ({ ids: page.items.map(id), next: page.nextCursor })
interface List {
  name: string
  read: (store: Store, page: PageRequest) => Promise<{ ids: string[]; next: string | null }>
  /** Takes an entry back before the reopening. */
  remove: (tx: StoreTx, id: string) => Promise<unknown>
  /** Makes a newer entry after it. */
  add: (tx: StoreTx) => Promise<unknown>
}

const LISTS: List[] = [
  {
    name: 'bookmarks',
    read: async (store, page) => idsOf(await store.listBookmarks(owner, page), (post) => post._id),
    remove: (tx, id) => tx.removeBookmark(owner, id, AT),
    add: (tx) => tx.addBookmark(owner, postId(14), AT),
  },
  {
    name: 'liked posts',
    read: async (store, page) => idsOf(await store.listLikedPosts(owner, page), (post) => post._id),
    remove: (tx, id) => tx.setReaction(id, owner, false, AT),
    add: (tx) => tx.setReaction(postId(15), owner, true, AT),
  },
  {
    name: 'blocks',
    read: async (store, page) => idsOf(await store.listBlocks(owner, page), (id) => id),
    remove: (tx, id) => tx.unblock(owner, id),
    add: (tx) => tx.block(owner, userId(15), AT),
  },
  {
    name: 'mutes',
    read: async (store, page) => idsOf(await store.listMutes(owner, AT, page), (mute) => mute.userId),
    remove: (tx, id) => tx.unmute(owner, id),
    add: (tx) => tx.mute(owner, { userId: userId(16) }, AT),
  },
]

/** Each store as a function that opens it, on the same data the second time; closed when the test ends. */
async function stores(): Promise<{ name: string; open: () => Promise<Store> }[]> {
  const opened: Store[] = []
  t.teardown(() => Promise.all(opened.map((store) => store.close().catch(() => undefined))))
  const seed = async () => structuredClone(database)
  const dataDir = await tempDataDir(t)
  const schema = testSchema(t)
  const kept = (store: Store) => {
    opened.push(store)
    return store
  }
  return [
    { name: 'embedded', open: async () => kept(await EmbeddedStore.open({ dataDir, seed })) },
    {
      name: 'postgres',
      open: async () => kept(await PgStore.open({ url: TEST_DATABASE_URL, poolMax: 2, schema, seed })),
    },
  ]
}

await t.test(
  'cursors from a database written before places were kept go on across a reopening',
  { skip },
  async (t) => {
    for (const { name, open } of await stores()) {
      const first = await open()
      const before: { list: List; whole: string[]; cursor: string; removed: string }[] = []
      for (const list of LISTS) {
        const whole = (await list.read(first, {})).ids
        const page = await list.read(first, { limit: PAGE })
        t.equal(whole.length, 7, `${name}, ${list.name}: seven entries`)
        t.strictSame(page.ids, whole.slice(0, PAGE), `${name}, ${list.name}: the first page starts the list`)
        before.push({ list, whole, cursor: page.next as string, removed: whole[PAGE + 2] as string })
      }
      await first.transaction(async (tx) => {
        for (const { list, removed } of before) await list.remove(tx, removed)
      })
      await first.close()

      const second = await open()
      await second.transaction(async (tx) => {
        for (const { list } of before) await list.add(tx)
      })
      for (const { list, whole, cursor, removed } of before) {
        const rest: string[] = []
        let next: string | null = cursor
        for (let pages = 0; next !== null && pages < 10; pages++) {
          const page = await list.read(second, { limit: PAGE, cursor: next })
          rest.push(...page.ids)
          next = page.next
        }
        const expected = whole.slice(PAGE).filter((id) => id !== removed)
        t.strictSame(rest, expected, `${name}, ${list.name}: the rest, nothing repeated or skipped`)
      }
    }
  },
)
