import t from 'tap'
import type { Database } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * What a user likes, on both stores, from a database written before the embedded store kept each
 * user's likes on their record: the likes already there are listed newest post first, and a new like
 * goes on top of them.
 */
const skip = await skipWithoutPostgres()

function likedDatabase(): { database: Database; likerId: string; liked: string[] } {
  const base = uuidDatabase({ users: 4, posts: 6 })
  const liker = base.users[3]
  if (!liker) throw new Error('no user')
  // Posts 1, 3 and 5 are liked by the liker alone; nothing else likes anything.
  // In time order, the order PostgreSQL's seed copies their likes in.
  const ordered = [...base.posts].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id))
  const posts = ordered.map((post, i) => ({
    ...post,
    likedBy: i % 2 === 1 ? [liker._id] : [],
    dislikedBy: [],
    likeCount: i % 2 === 1 ? 1 : 0,
  }))
  const liked = posts.filter((post) => post.likedBy.length > 0).map((post) => post._id)
  return { database: { ...base, posts }, likerId: liker._id, liked }
}

await t.test('liked posts read from an older database, then one more like on top', { skip }, async (t) => {
  const { database, likerId, liked } = likedDatabase()
  for (const { name, store } of await openBothStores(t, database)) {
    const read = async () => (await store.listLikedPosts(likerId, {})).items.map((post) => post._id)
    t.strictSame(await read(), [...liked].reverse(), `${name}: the likes there were, newest post first`)
    const next = database.posts.find((post) => post.likedBy.length === 0)
    if (!next) throw new Error('no post left to like')
    await store.transaction((tx) => tx.setReaction(next._id, likerId, true, new Date().toISOString()))
    t.strictSame(await read(), [next._id, ...[...liked].reverse()], `${name}: a new like first`)
    const first = await store.listLikedPosts(likerId, { limit: 2 })
    t.equal(first.items.length, 2, `${name}: paged`)
    const rest = await store.listLikedPosts(likerId, { limit: 5, cursor: first.nextCursor ?? undefined })
    t.equal(rest.items.length, 2, `${name}: the rest`)
    t.equal(rest.nextCursor, null)
    t.equal(
      await store.countPosts(database.posts[0]?.authorId ?? ''),
      database.posts.filter((p) => p.authorId === database.posts[0]?.authorId).length,
      `${name}: countPosts`,
    )
  }
})
