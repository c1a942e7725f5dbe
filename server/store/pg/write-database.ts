import type { Database } from '../types.js'
import type { Queryable } from './connect.js'
import { followOrder } from './follow-order.js'
import { emptyChildRows, insertRows, postChildRows, postRow, userRow } from './table-rows.js'

export interface WriteSummary {
  users: number
  posts: number
  /** References to users or posts that do not exist (or repeats), which the tables cannot hold. */
  skipped: number
}

/**
 * Writes a whole embedded database into empty tables, keeping every id, date and password hash, and
 * the order of every list: rows of each appended table get sequence numbers in list order. For the
 * seed and the import, inside their transaction; the database must be empty, as the numbers are
 * taken as one block.
 */
export async function writeDatabase(sql: Queryable, database: Database): Promise<WriteSummary> {
  const userIds = new Set(database.users.map((user) => user._id))
  const knownUser = (id: string) => userIds.has(id)
  const follows = followOrder(database.users)
  const followers = new Map<string, number>()
  for (const { followee } of follows) followers.set(followee, (followers.get(followee) ?? 0) + 1)

  const posts = database.posts.filter((post) => knownUser(post.authorId))
  const postIds = new Set(posts.map((post) => post._id))
  const children = emptyChildRows()
  children.skipped = database.posts.length - posts.length
  const postRows = posts.map((post) => postRow(post, postChildRows(post, knownUser, children)))

  const bookmarks: { user_id: string; post_id: string }[] = []
  for (const user of database.users) {
    const kept = [...new Set(user.bookmarks)].filter((postId) => postIds.has(postId))
    for (const post_id of kept) bookmarks.push({ user_id: user._id, post_id })
    children.skipped += user.bookmarks.length - kept.length
  }

  const [first] = await sql<{ seq: string }[]>`SELECT nextval('activity_seq') AS seq`
  let seq = Number(first?.seq)
  const numbered = <R extends object>(rows: R[]) => rows.map((row) => ({ ...row, seq: seq++ }))

  await insertRows(sql, 'users', database.users.map((user) => userRow(user, followers.get(user._id) ?? 0)))
  await insertRows(sql, 'posts', postRows)
  await insertRows(sql, 'follows', numbered(follows.map(({ follower, followee }) => ({ follower_id: follower, followee_id: followee }))))
  await insertRows(sql, 'post_reactions', numbered(children.reactions))
  await insertRows(sql, 'comments', numbered(children.comments))
  await insertRows(sql, 'comment_votes', numbered(children.votes))
  await insertRows(sql, 'bookmarks', numbered(bookmarks))
  // The next live append goes after everything written here.
  await sql`SELECT setval('activity_seq', ${seq})`
  return { users: database.users.length, posts: posts.length, skipped: children.skipped }
}
