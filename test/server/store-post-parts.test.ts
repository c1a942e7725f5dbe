import { randomUUID } from 'node:crypto'
import t from 'tap'
import type { CommentRecord, Database, Store } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * A post's likes and comments past what its record shows, held to one contract on both stores: the
 * true counts, the paged likers and comments, the one comment and which posts a reader likes.
 */
const skip = await skipWithoutPostgres()
const at = (minute: number) => new Date(Date.UTC(2026, 0, 20, 0, minute)).toISOString()

/** A database of 30 users and one post that all of them like, in order, and 25 comments on it. */
function popularDatabase(): Database {
  const base = uuidDatabase({ users: 30, posts: 3 })
  const [post, ...rest] = base.posts
  if (!post) throw new Error('no post')
  const likers = base.users.map((user) => user._id)
  const comments: CommentRecord[] = Array.from({ length: 25 }, (_, i) => ({
    _id: randomUUID(),
    authorId: likers[i % likers.length] as string,
    text: `comment ${i}`,
    upvotedBy: [],
    downvotedBy: [],
    createdAt: at(i),
    updatedAt: at(i),
  }))
  const popular = { ...post, likedBy: likers, dislikedBy: [], comments, likeCount: 30, commentCount: 25 }
  return { ...base, posts: [popular, ...rest] }
}

async function pages<T>(read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>) {
  const all: T[] = []
  let cursor: string | undefined
  for (let page = 0; page < 20; page++) {
    const { items, nextCursor } = await read(cursor)
    all.push(...items)
    if (nextCursor === null) return all
    cursor = nextCursor
  }
  throw new Error('more than 20 pages')
}

await t.test('both stores page likers and comments, count them all and show the most recent', { skip }, async (t) => {
  const database = popularDatabase()
  const post = database.posts[0]
  if (!post) throw new Error('no post')
  const likers = post.likedBy
  for (const { name, store } of await openBothStores(t, database)) {
    const record = await store.getPost(post._id)
    t.equal(record?.likeCount, 30, `${name}: likeCount`)
    t.equal(record?.commentCount, 25, `${name}: commentCount`)
    t.strictSame(record?.likedBy.slice(-20), likers.slice(-20), `${name}: the record ends with the 20 most recent`)
    t.strictSame(
      record?.comments.slice(-20).map((c) => c.text),
      post.comments.slice(-20).map((c) => c.text),
      `${name}: and the 20 newest comments`,
    )
    const listed = await pages((cursor) => store.listLikers(post._id, { limit: 7, cursor }))
    t.strictSame(listed, [...likers].reverse(), `${name}: every liker, newest first, over pages`)
    const comments = await pages((cursor) => store.listComments(post._id, { limit: 6, cursor }))
    t.strictSame(
      comments.map((c) => c.text),
      post.comments.map((c) => c.text),
      `${name}: every comment, oldest first`,
    )
    const some = post.comments[3] as CommentRecord
    t.strictSame(await store.getComment(post._id, some._id), some, `${name}: one comment by id`)
    t.equal(await store.getComment(post._id, randomUUID()), undefined, `${name}: an unknown comment`)
    t.equal(await store.getComment(database.posts[1]?._id as string, some._id), undefined, `${name}: on another post`)
    t.strictSame(await store.listLikers(randomUUID(), {}), { items: [], nextCursor: null }, `${name}: unknown post`)
    const ids = database.posts.map((p) => p._id)
    t.strictSame(
      [...(await store.likedAmong(likers[0] as string, [...ids, randomUUID(), 'x']))].sort(),
      ids.filter((id) => database.posts.find((p) => p._id === id)?.likedBy.includes(likers[0] as string)).sort(),
      `${name}: which posts a reader likes`,
    )
  }
})

await t.test('likes, unlikes and comments keep the counts on both stores', { skip }, async (t) => {
  const database = uuidDatabase({ users: 8, posts: 2 })
  const post = database.posts[0]
  if (!post) throw new Error('no post')
  const [a, b] = database.users.map((user) => user._id) as [string, string]
  for (const { name, store } of await openBothStores(t, database)) {
    const before = (await store.getPost(post._id)) as NonNullable<Awaited<ReturnType<Store['getPost']>>>
    const comment: CommentRecord = {
      _id: randomUUID(),
      authorId: a,
      text: 'hi',
      upvotedBy: [],
      downvotedBy: [],
      createdAt: at(1),
      updatedAt: at(1),
    }
    await store.transaction(async (tx) => {
      await tx.setReaction(post._id, b, !before.likedBy.includes(b), at(1))
      await tx.addComment(post._id, comment)
    })
    const after = await store.getPost(post._id)
    t.equal(after?.likeCount, before.likeCount + (before.likedBy.includes(b) ? -1 : 1), `${name}: likeCount moves`)
    t.equal(after?.commentCount, before.commentCount + 1, `${name}: commentCount moves`)
    await store.transaction((tx) => tx.deleteComment(post._id, comment._id))
    await store.transaction((tx) => tx.deleteComment(post._id, comment._id))
    t.equal((await store.getPost(post._id))?.commentCount, before.commentCount, `${name}: a delete counts once`)
  }
})

await t.test(
  "a home feed (feedOf) is the user's posts and their followees', the same on both stores",
  { skip },
  async (t) => {
    const database = uuidDatabase()
    const stores = await openBothStores(t, database)
    for (const user of database.users) {
      for (const sort of ['latest', 'oldest', 'trending'] as const) {
        const pages = await Promise.all(
          stores.map(async ({ store }) => {
            const feed = await store.listPosts({ sort, feedOf: user._id, limit: 5 })
            const byAuthors = await store.listPosts({ sort, authorIds: [user._id, ...user.following], limit: 5 })
            t.strictSame(feed, byAuthors, `${user.username} ${sort}: the same page as by the authors`)
            return feed.items.map((post) => post._id)
          }),
        )
        t.strictSame(pages[1], pages[0], `${user.username} ${sort}: both stores agree`)
      }
    }
    for (const { name, store } of stores) {
      t.strictSame(
        await store.listPosts({ sort: 'latest', feedOf: randomUUID() }),
        { items: [], nextCursor: null },
        `${name}: nobody`,
      )
      t.strictSame(
        await store.getTokenHolder(database.users[0]?._id as string),
        {
          _id: database.users[0]?._id,
          username: database.users[0]?.username,
          tokenVersion: 0,
        },
        `${name}: a token holder`,
      )
    }
  },
)
