import t from 'tap'
import { MSG } from '../../server/errors.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { createLikeBatches } from '../../server/services/like-batches.js'
import type { Database, PostRecord, Store } from '../../server/store/types.js'
import { tempDataDir, type TestContext } from '../helpers/app.js'
import { openPgStore } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * Likes written in batches (services/like-batches.ts), on both stores with one batch at a time: changes
 * that arrive while a batch is written go together in the next, each decided on its own; a second change
 * of a post already in a batch waits for the one after, and reads what the first left.
 */
const skipPostgres = await skipWithoutPostgres()
const NOW = new Date('2026-11-26T12:00:00.000Z')
const UNKNOWN = '00000000-0000-4000-8000-000000000000'

/** The store, with each transaction's count kept; `failing` makes the transaction of that number throw. */
function counted(store: Store, failing?: number) {
  const transactions: number[] = []
  const wrapped = new Proxy(store, {
    get(target, key) {
      if (key === 'transaction') {
        return async (work: Parameters<Store['transaction']>[0]) => {
          transactions.push(transactions.length + 1)
          if (transactions.length === failing) throw new Error('the database went away')
          return target.transaction(work)
        }
      }
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  return { store: wrapped, transactions }
}

type Outcome = { likeCount: number | undefined } | { refused: string }
const outcome = (answer: Promise<PostRecord | undefined>): Promise<Outcome> =>
  answer.then(
    (record) => ({ likeCount: record?.likeCount }),
    (error: Error) => ({ refused: error.message }),
  )

async function stores(t: TestContext, database: Database): Promise<[string, Store][]> {
  const embedded = await EmbeddedStore.open({
    dataDir: await tempDataDir(t),
    seed: async () => structuredClone(database),
  })
  t.teardown(() => embedded.close())
  const both: [string, Store][] = [['embedded', embedded]]
  if (!skipPostgres) both.push(['postgres', await openPgStore(t, database)])
  return both
}

await t.test('a batch decides each change on its own, and a post twice waits for the next', async (t) => {
  const database = uuidDatabase({ users: 8, posts: 12 })
  const u = database.users.map((user) => user._id)
  const p = database.posts.map((post) => post._id)
  const likes = (i: number) => database.posts[i]?.likeCount as number
  for (const [name, opened] of await stores(t, database)) {
    // p[9]'s author blocks u[1]; p[7] is liked by u[7] and u[6], not by u[3].
    await opened.transaction((tx) => tx.block(database.posts[9]?.authorId as string, u[2] as string, NOW.toISOString()))
    const { store, transactions } = counted(opened)
    const react = createLikeBatches({ store, now: () => NOW }, { atOnce: 1 })
    const asked = [
      react(u[1] as string, p[5] as string, true), // alone: a batch of one
      react(u[1] as string, p[6] as string, true),
      react(u[2] as string, p[5] as string, true),
      react(u[3] as string, p[7] as string, false), // never liked it
      react(u[1] as string, UNKNOWN, true),
      react(u[2] as string, p[9] as string, true), // blocked by its author
      react(u[4] as string, p[6] as string, true), // p[6] again: the next batch
      react(u[1] as string, p[6] as string, true), // and again, by whoever liked it already
    ]
    const answers = await Promise.all(asked.map(outcome))
    t.strictSame(
      answers,
      [
        { likeCount: likes(5) + 1 },
        { likeCount: likes(6) + 1 },
        { likeCount: likes(5) + 2 },
        { refused: MSG.alreadyDisliked },
        { refused: MSG.postNotFound },
        { refused: MSG.cannotInteract },
        { likeCount: likes(6) + 2 },
        { refused: MSG.alreadyLiked },
      ],
      `${name}: each change answered on its own`,
    )
    t.equal(transactions.length, 4, `${name}: one, then everything that waited, then each later change of p[6]`)
    const told = await opened.listNotifications(database.posts[5]?.authorId as string, {})
    t.strictSame(
      told.items
        .filter((n) => n.type === 'like' && n.postId === p[5])
        .map((n) => n.actorId)
        .sort(),
      [u[1], u[2]].sort(),
      `${name}: p[5]'s author is told of both likes`,
    )
    const [p7, p9] = await opened.getPosts([p[7] as string, p[9] as string])
    t.equal(p7?.likeCount, likes(7), `${name}: a refused unlike changed nothing`)
    t.equal(p9?.likeCount, likes(9), `${name}: a refused like changed nothing`)
  }
})

await t.test('a batch whose transaction fails fails each of its changes, and the next batch goes on', async (t) => {
  const database = uuidDatabase({ users: 8, posts: 12 })
  const u = database.users.map((user) => user._id)
  const p = database.posts.map((post) => post._id)
  for (const [name, opened] of await stores(t, database)) {
    const { store } = counted(opened, 2)
    const react = createLikeBatches({ store, now: () => NOW }, { atOnce: 1 })
    const answers = await Promise.all(
      [
        react(u[1] as string, p[5] as string, true),
        react(u[1] as string, p[6] as string, true),
        react(u[2] as string, p[8] as string, true),
        react(u[2] as string, p[6] as string, true),
      ].map(outcome),
    )
    const [p6, p8] = await opened.getPosts([p[6] as string, p[8] as string])
    t.strictSame(
      answers.map((answer) => 'refused' in answer && answer.refused),
      [false, 'the database went away', 'the database went away', false],
      `${name}: the failed batch's changes fail, the others are written`,
    )
    t.strictSame(p6?.likedBy.includes(u[1] as string), false, `${name}: nothing of the failed batch was written`)
    t.strictSame(p8?.likedBy.includes(u[2] as string), false, `${name}: nothing of the failed batch was written`)
  }
})
