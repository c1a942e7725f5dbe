import { access } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { totpCode } from '../../server/services/totp.js'
import { expectOk, signup, storedText, type SignedUp } from '../helpers/api.js'
import { untilMediaDeleted } from '../helpers/jobs.js'
import { buildModerationApp, call, commentBy, imageBy } from '../helpers/moderation.js'
import { testDatabaseUrl, withSql } from '../helpers/store-under-test.js'

/**
 * DELETE /api/account leaves nothing of the person behind (DECISIONS §9): after someone who did
 * everything Chirp allows goes, no row anywhere names them or one of their posts (on PostgreSQL, every
 * column of every table is searched, so a table added later is covered too), and the media folder no
 * longer holds their upload while it still holds others'.
 */
const { api, admin } = await buildModerationApp(t)

const exists = (url: string) =>
  access(path.join(api.dataDir, 'media', path.basename(url))).then(
    () => true,
    () => false,
  )

type Post = { _id: string }
type Comment = { _id: string }

const post = async (who: SignedUp, payload: object): Promise<string> => {
  const res = await call(api, who.token, 'POST', '/api/posts', payload)
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post._id
}
const reply = async (who: SignedUp, postId: string, replyTo: string): Promise<string> => {
  const res = await call(api, who.token, 'POST', `/api/comments/add/${postId}`, { text: 'a reply', replyTo })
  const comments = (res.json() as { comments: Comment[] }).comments
  return (comments[comments.length - 1] as Comment)._id
}
/** Every call must work: a refused one would leave the test proving less than it says. */
const ok = async (who: SignedUp, url: string, payload?: object) => {
  const res = await call(api, who.token, 'POST', url, payload)
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
}

/** The rows of every table with a column holding one of `ids`: table.column → how many. */
async function rowsNaming(schema: string, ids: readonly string[]): Promise<Record<string, number>> {
  return withSql(schema, async (sql) => {
    const columns = await sql<{ table: string; column: string }[]>`
      SELECT c.table_name AS table, c.column_name AS column
      FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = ${schema} AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('uuid', 'text', 'character varying')
      ORDER BY c.table_name, c.column_name`
    const found: Record<string, number> = {}
    for (const { table, column } of columns) {
      const [row] = await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM ${sql(table)} WHERE ${sql(column)}::text IN ${sql(ids)}`
      if (row && row.n > 0) found[`${table}.${column}`] = row.n
    }
    return found
  })
}

await t.test('a person who did everything leaves no row and no file behind', async (t) => {
  const [leaver, bea, cal, dan] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  const id = (who: SignedUp) => who.user._id

  // Two-factor sign-in on.
  const setup = await call(api, leaver.token, 'POST', '/api/account/2fa/setup')
  const { secret } = setup.json() as { secret: string }
  await ok(leaver, '/api/account/2fa/enable', { code: totpCode(secret, new Date()), password: leaver.password })

  // Their posts: one with their upload, one mentioning bea, a poll, and a quote of bea's post; one pinned.
  const image = await imageBy(api, leaver.token)
  const beasImage = await imageBy(api, bea.token)
  const withImage = await post(leaver, { content: 'my picture', mediaUrl: image })
  const mention = await post(leaver, { content: `hello @${bea.username} #goodbye` })
  const poll = await post(leaver, { content: 'which?', poll: { options: ['tea', 'coffee'], days: 1 } })
  const beasPost = await post(bea, { content: 'bea writes #hello', mediaUrl: beasImage })
  const beasPoll = await post(bea, { content: 'bea asks', poll: { options: ['yes', 'no'], days: 1 } })
  const quote = await post(leaver, { content: 'quoting bea', quoteOf: beasPost })
  await ok(leaver, `/api/posts/pin/${withImage}`)

  // What they did to others' things, and others to theirs.
  await ok(leaver, `/api/posts/like/${beasPost}`)
  await ok(bea, `/api/posts/like/${withImage}`)
  await ok(leaver, `/api/posts/repost/${beasPost}`)
  await ok(bea, `/api/posts/repost/${mention}`)
  const beasQuote = await post(bea, { content: 'bea quotes', quoteOf: withImage })
  await ok(leaver, `/api/polls/${beasPoll}/vote`, { choice: 0 })
  await ok(bea, `/api/polls/${poll}/vote`, { choice: 1 })
  const theirComment = await commentBy(api, leaver.token, beasPost, `a comment for @${cal.username}`)
  const beasComment = await commentBy(api, bea.token, beasPost, 'bea comments too')
  const theirReply = await reply(leaver, beasPost, beasComment)
  const beasReply = await reply(bea, beasPost, theirComment)
  const onTheirs = await commentBy(api, bea.token, withImage, 'nice picture')
  await ok(leaver, `/api/comments/upvote/${beasPost}/${beasComment}`)
  await ok(bea, `/api/comments/upvote/${beasPost}/${theirComment}`)
  await ok(leaver, `/api/users/bookmark/${beasPost}`)
  await ok(bea, `/api/users/bookmark/${withImage}`)
  await ok(leaver, `/api/users/follow/${id(bea)}`)
  await ok(bea, `/api/users/follow/${id(leaver)}`)
  await ok(leaver, `/api/users/block/${id(cal)}`)
  await ok(dan, `/api/users/block/${id(leaver)}`)
  await ok(leaver, `/api/users/mute/${id(dan)}`)
  await ok(cal, `/api/users/mute/${id(leaver)}`)
  // Follow requests both ways, waiting: to a locked account, and to them once they lock theirs.
  const [eve, fay] = [await signup(api), await signup(api)]
  await ok(eve, '/api/users/edit', { locked: true })
  await ok(leaver, `/api/users/follow/${id(eve)}`)
  await ok(leaver, '/api/users/edit', { locked: true })
  await ok(fay, `/api/users/follow/${id(leaver)}`)
  await ok(leaver, '/api/reports', { targetType: 'post', targetId: beasPost, category: 'spam' })
  await ok(leaver, '/api/reports', { targetType: 'user', targetId: id(dan), category: 'spam' })
  await ok(bea, '/api/reports', { targetType: 'post', targetId: mention, category: 'spam' })
  await ok(bea, '/api/reports', { targetType: 'user', targetId: id(leaver), category: 'abuse' })
  const notifications = (who: SignedUp) => call(api, who.token, 'GET', '/api/notifications')
  const beasNotes = (await notifications(bea)).json() as { notifications: unknown[] }
  const leaversNotes = (await notifications(leaver)).json() as { notifications: unknown[] }
  t.ok(beasNotes.notifications.length > 0, 'bea has notifications from them')
  t.ok(leaversNotes.notifications.length > 0, 'and they have notifications from bea')

  const theirPosts = [withImage, mention, poll, quote]
  const theirComments = [theirComment, theirReply, beasReply, onTheirs]
  const theirIds = [id(leaver), ...theirPosts, ...theirComments]
  if (testDatabaseUrl !== undefined) {
    const before = await rowsNaming(api.schema as string, theirIds)
    for (const table of ['users', 'posts', 'comments', 'post_reactions', 'reposts', 'poll_votes', 'comment_votes']) {
      t.ok(
        Object.keys(before).some((key) => key.startsWith(`${table}.`)),
        `before: ${table} names them`,
      )
    }
    const owned = [
      'bookmarks',
      'follows',
      'follow_requests',
      'blocks',
      'mutes',
      'reports',
      'two_factor',
      'notifications',
    ]
    for (const table of owned) {
      t.ok(
        Object.keys(before).some((key) => key.startsWith(`${table}.`)),
        `before: ${table} names them`,
      )
    }
  }
  t.equal(await exists(image), true, 'their upload is there before')
  if (testDatabaseUrl === undefined) {
    const stored = await storedText(api)
    t.ok(
      theirPosts.every((made) => stored.includes(made)),
      'before: the stored records name their posts',
    )
  }

  expectOk(
    t,
    await call(api, leaver.token, 'DELETE', '/api/account', { password: leaver.password }),
    200,
    EmptyObjectSchema,
  )

  if (testDatabaseUrl !== undefined) {
    const {
      'events.recipient': ending = 0,
      'event_outbox.recipient': pending = 0,
      ...after
    } = await rowsNaming(api.schema as string, theirIds)
    // The held username keeps the id, so a token of theirs is known as a deleted user's; a quote of one of
    // their posts keeps the id of a post that is gone, as any quote of a deleted post does, so that it reads
    // `quote: null` (DECISIONS §11) and names nothing that exists.
    t.strictSame(
      after,
      { 'reserved_usernames.user_id': 1, 'posts.quote_of': 1 },
      'no table but reserved_usernames, and the quote of a post now gone, names them',
    )
    // The one event still addressed to them is the deletion's own, which ends their streams on every instance.
    t.equal(ending + pending, 1, 'one event is addressed to them')
    const names = await withSql(
      api.schema as string,
      (sql) =>
        sql<{ name: string }[]>`
        SELECT name FROM events WHERE recipient = ${id(leaver)}
        UNION ALL SELECT name FROM event_outbox WHERE recipient = ${id(leaver)}`,
    )
    t.strictSame(
      names.map((row) => row.name),
      ['session.ended'],
      'and it is the end of their sessions',
    )
  }
  const moderator = await api.login('theo_park')
  const queue = (await call(api, moderator, 'GET', '/api/admin/reports?status=open&limit=100')).body
  t.notOk(queue.includes(id(leaver)), 'no report about them is left in the queue')
  if (testDatabaseUrl !== undefined) {
    const naming = await withSql(
      api.schema as string,
      (sql) => sql<{ name: string }[]>`
        SELECT name FROM events e
        WHERE EXISTS (SELECT 1 FROM unnest(${theirIds}::text[]) AS id WHERE strpos(e.data, id) > 0)
        UNION ALL SELECT name FROM event_outbox o
        WHERE EXISTS (SELECT 1 FROM unnest(${theirIds}::text[]) AS id WHERE strpos(o.data, id) > 0)`,
    )
    t.strictSame(
      [...new Set(naming.map((row) => row.name))].sort(),
      ['post.deleted', 'user.deleted'],
      "the log names them only in the deletion's own events: none replays what they wrote",
    )
  }
  // The embedded store's files may still hold replaced copies of a shard until they are rewritten (its
  // log keeps a segment while any shard of it is current), so there what every remaining person reads is
  // checked: no notification of theirs names the person, their posts or their comments.
  const named = [id(leaver), ...theirPosts, ...theirComments]
  for (const who of [bea, cal, dan]) {
    const text = (await call(api, who.token, 'GET', '/api/notifications?limit=100')).body
    t.strictSame(
      named.filter((gone) => text.includes(gone)),
      [],
      `no notification of @${who.username} names them or what they made`,
    )
  }
  await untilMediaDeleted(api, admin)
  t.equal(await exists(image), false, 'their upload is gone from the media folder, by a job')
  t.equal(await exists(beasImage), true, "bea's upload stays")
  const quoted = (await call(api, bea.token, 'GET', `/api/posts/${beasQuote}`)).json() as {
    post: { quote?: unknown; quoteOf?: string }
  }
  t.equal(quoted.post.quoteOf, withImage, "bea's quote still says it quoted a post")
  t.equal(quoted.post.quote, null, 'which is unavailable now')
})
