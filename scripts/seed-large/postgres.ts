import postgres from 'postgres'
import type { Queryable } from '../../server/store/pg/connect.js'
import { lockSchema, migrate } from '../../server/store/pg/migrate.js'
import { notificationRow } from '../../server/store/pg/pg-notifications.js'
import { emptyChildRows, postChildRows, postRow, userRow } from '../../server/store/pg/table-rows.js'
import { userWordRows } from '../../server/store/pg/term-rows.js'
import type { UserRecord } from '../../server/store/types.js'
import { BulkInserter, type Row } from './bulk-insert.js'
import { dropKeys, restoreKeys } from './deferred-keys.js'
import type { People } from './people.js'
import type { NotificationMaker } from './notifications.js'
import { addBookmarks, postStream } from './posts.js'
import type { ProgressBar } from './progress.js'
import type { Random } from './random.js'

/** The tables a generated data set fills, in the layout the migrations made (server/store/pg/migrations). */
const TABLES = [
  'users',
  'user_search_words',
  'follows',
  'posts',
  'post_tags',
  'post_reactions',
  'comments',
  'comment_votes',
  'bookmarks',
  'notifications',
]
/** Posts generated between two yields to the event loop, which lets the pipelined statements reach the socket. */
const POSTS_PER_STEP = 500

export interface PostgresTarget {
  url: string
  schema: string
  /** Drop the schema, with everything in it, before loading. */
  force: boolean
}

/** The loader's own connection: no statement timeout (an index over millions of rows takes a while), a bounded wait for locks. */
export function loaderSql(target: PostgresTarget): postgres.Sql {
  return postgres(target.url, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: 'chirp-seed-large', search_path: target.schema, lock_timeout: 10_000 },
  })
}

/**
 * Migrates the schema (without the demo seed) and refuses one that already holds users, unless `force`
 * dropped it first. Runs before anything is generated, so a refusal costs nothing.
 */
export async function prepareSchema(sql: postgres.Sql, target: PostgresTarget): Promise<void> {
  if (target.force) await sql`DROP SCHEMA IF EXISTS ${sql(target.schema)} CASCADE`
  await migrate(sql, { schema: target.schema })
  await refuseUsers(sql, target.schema)
}

async function refuseUsers(sql: Queryable, schema: string): Promise<void> {
  const [state] = await sql<{ taken: boolean }[]>`SELECT EXISTS (SELECT 1 FROM users) AS taken`
  if (state?.taken) {
    throw new Error(
      `the PostgreSQL schema "${schema}" already holds users; pass --force to drop it and load a generated data set`,
    )
  }
}

export interface Generated {
  random: Random
  people: People
  /** The records of `people.users`, password hashes included. */
  users: UserRecord[]
  posts: number
  now: number
  /** Makes the named accounts' notifications of the follows and of each post as it is written. */
  told: NotificationMaker
  /** Draws each post's audience when a third of them are to be non-public (`--audiences`). */
  audiences?: Random
}

/**
 * Writes a generated data set into the migrated, empty schema in one transaction: all of it, or nothing.
 * Keys and indexes are dropped for the load and built once at the end; posts are generated as they are
 * written, so memory holds one step of them, not the data set. Then VACUUM sets the visibility map and
 * the statistics, so the first reads and autovacuum do not rewrite the fresh tables while they are measured.
 */
export async function loadPostgres(
  sql: postgres.Sql,
  schema: string,
  data: Generated,
  progress: ProgressBar,
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT set_config('maintenance_work_mem', '256MB', true)`
    await lockSchema(tx, schema)
    await refuseUsers(tx, schema)
    const keys = await dropKeys(tx, schema, TABLES)
    const rows = await BulkInserter.open(tx, schema, TABLES)
    const [first] = await tx<{ seq: string }[]>`SELECT nextval('activity_seq') AS seq`
    let seq = Number(first?.seq)
    // Appended rows keep their lists' order by their sequence numbers, as writeDatabase gives them.
    const numbered = (list: readonly object[]): Row[] =>
      list.map((row) => {
        ;(row as Row).seq = seq++
        return row as Row
      })

    // The generator appends each follow to both the follower's and the followee's list at once, so the
    // order it made them in is one both lists agree on: what followOrder rebuilds for an arbitrary
    // database, at seconds of CPU for 800,000 follows.
    const follows = data.people.users.flatMap((user) =>
      user.following.map((followee) => ({ follower: user._id, followee })),
    )
    progress.start('accounts', data.users.length + follows.length)
    await rows.add(
      'users',
      data.people.users.map((user, i) => userRow(data.users[i] as UserRecord, user.followers.length)),
    )
    await rows.add(
      'user_search_words',
      data.users.flatMap((user) => userWordRows(user._id, user)),
    )
    progress.tick(data.users.length)
    for (let start = 0; start < follows.length; start += 10_000) {
      const slice = follows.slice(start, start + 10_000)
      await rows.add(
        'follows',
        numbered(slice.map(({ follower, followee }) => ({ follower_id: follower, followee_id: followee }))),
      )
      progress.tick(slice.length)
    }
    await rows.add('notifications', data.told.ofFollows(data.people.users).map(notificationRow))
    progress.finish()

    const known = new Set(data.users.map((user) => user._id))
    const knownUser = (id: string) => known.has(id)
    const postIds: string[] = []
    progress.start('posts', data.posts)
    const stream = postStream(data.random, data.people, data.posts, data.now, data.audiences)
    for (let done = false; !done;) {
      const posts: Row[] = []
      const notifications: Row[] = []
      const children = emptyChildRows()
      for (let i = 0; i < POSTS_PER_STEP; i++) {
        const next = stream.next()
        if (next.done) {
          done = true
          break
        }
        postIds.push(next.value._id)
        posts.push(postRow(next.value, postChildRows(next.value, knownUser, children)))
        notifications.push(...data.told.ofPost(next.value).map(notificationRow))
      }
      await rows.add('posts', posts)
      await rows.add('post_tags', children.tags)
      await rows.add('post_reactions', numbered(children.reactions))
      await rows.add('comments', numbered(children.comments))
      await rows.add('comment_votes', numbered(children.votes))
      await rows.add('notifications', notifications)
      progress.tick(posts.length)
      await new Promise((resolve) => setImmediate(resolve))
    }
    addBookmarks(data.random, data.people.users, postIds)
    const bookmarks = data.people.users.flatMap((user) =>
      user.bookmarks.map((post_id) => ({ user_id: user._id, post_id })),
    )
    await rows.add('bookmarks', numbered(bookmarks))
    await rows.finish()
    progress.finish()
    // Each recipient's count, which the server keeps beside its notifications, as the rows now stand.
    for (const [id, unread] of data.told.unread)
      await tx`UPDATE users SET unread_notifications = ${unread} WHERE id = ${id}`

    // The next live append goes after everything written here.
    await tx`SELECT setval('activity_seq', ${seq})`
    await restoreKeys(tx, keys, progress)
  })

  progress.start('vacuum', TABLES.length)
  for (const table of TABLES) {
    await sql`VACUUM (FREEZE, ANALYZE) ${sql(table)}`
    progress.tick()
  }
  progress.finish()
}
