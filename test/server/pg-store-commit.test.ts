import t from 'tap'
import { openPgStore } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * A transaction's outbox rows are sent with its COMMIT (pg-store.ts, transaction). Should writing them
 * fail, nothing of the transaction is kept and the transaction rejects with that failure; otherwise its
 * writes and its events land together.
 */
const skip = await skipWithoutPostgres()

await t.test('outbox rows go with the commit, and a failed one takes the writes back', { skip }, async (t) => {
  const database = uuidDatabase()
  const store = await openPgStore(t, database)
  const [liker] = database.users.map((user) => user._id) as [string]
  const post = database.posts.find((candidate) => !candidate.likedBy.includes(liker))
  if (!post) throw new Error('the database has a post the first user does not like')
  const at = new Date().toISOString()

  await t.rejects(
    store.transaction(async (tx) => {
      t.ok(await tx.setReaction(post._id, liker, true, at), 'the like is written')
      // A recipient that is not a uuid: PostgreSQL refuses the outbox row.
      tx.emit({ name: 'notification.read', data: { unread: 0 }, to: 'not-a-uuid' })
    }),
    /uuid/,
    'the transaction rejects with the outbox insert failure',
  )
  t.equal((await store.getPost(post._id))?.likeCount, post.likeCount, 'the like was taken back')
  t.notOk((await store.getPost(post._id))?.likedBy.includes(liker), 'nor is the liker among the likers')

  await store.transaction(async (tx) => {
    await tx.setReaction(post._id, liker, true, at)
    tx.emit({ name: 'notification.read', data: { unread: 0 }, to: liker })
  })
  t.equal((await store.getPost(post._id))?.likeCount, post.likeCount + 1, 'a transaction whose rows go in is kept')
})
