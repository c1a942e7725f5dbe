import type { MediaRecord, PostVersionRecord, ScheduledPostData, ScheduledPostRecord } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

/** Posts' earlier versions and scheduled posts on PostgreSQL (migration 55). */

interface VersionRow {
  content: string
  spoiler_text: string | null
  media: MediaRecord[]
  poll_options: string[] | null
  edited_at: Date
}

interface ScheduledRow {
  id: string
  user_id: string
  scheduled_at: Date
  post_data: ScheduledPostData
  created_at: Date
}

const versionOf = (row: VersionRow): PostVersionRecord => ({
  content: row.content,
  ...(row.spoiler_text === null ? {} : { spoilerText: row.spoiler_text }),
  media: row.media,
  ...(row.poll_options === null ? {} : { pollOptions: row.poll_options }),
  editedAt: row.edited_at.toISOString(),
})

const scheduledOf = (row: ScheduledRow): ScheduledPostRecord => ({
  _id: row.id,
  userId: row.user_id,
  scheduledAt: row.scheduled_at.toISOString(),
  postData: row.post_data,
  createdAt: row.created_at.toISOString(),
})

/** A version's media as stored: each image's fields that it has, and no others. */
const mediaJson = (media: readonly MediaRecord[]) =>
  media.map(({ url, alt, width, height }) => ({
    url,
    ...(alt === undefined ? {} : { alt }),
    ...(width === undefined ? {} : { width }),
    ...(height === undefined ? {} : { height }),
  }))

export async function listPostVersions(sql: Queryable, postId: string): Promise<PostVersionRecord[]> {
  if (!isUuid(postId)) return []
  const rows = await sql<VersionRow[]>`
    SELECT content, spoiler_text, media, poll_options, edited_at FROM post_versions
    WHERE post_id = ${postId} ORDER BY seq`
  return rows.map(versionOf)
}

export async function addPostVersion(sql: Queryable, postId: string, version: PostVersionRecord): Promise<boolean> {
  if (!isUuid(postId)) return false
  const rows = await sql`
    INSERT INTO post_versions (post_id, seq, content, spoiler_text, media, poll_options, edited_at)
    SELECT p.id, COALESCE((SELECT max(seq) + 1 FROM post_versions WHERE post_id = p.id), 0), ${version.content},
      ${version.spoilerText ?? null}, ${sql.json(mediaJson(version.media))},
      ${version.pollOptions ? [...version.pollOptions] : null}::text[], ${version.editedAt}
    FROM posts p WHERE p.id = ${postId}
    RETURNING post_id`
  return rows.length > 0
}

export async function listScheduledPosts(sql: Queryable, userId: string): Promise<ScheduledPostRecord[]> {
  if (!isUuid(userId)) return []
  const rows = await sql<ScheduledRow[]>`
    SELECT * FROM scheduled_posts WHERE user_id = ${userId} ORDER BY scheduled_at, created_at, id`
  return rows.map(scheduledOf)
}

export async function getScheduledPost(
  sql: Queryable,
  userId: string,
  id: string,
): Promise<ScheduledPostRecord | undefined> {
  if (!isUuid(userId) || !isUuid(id)) return undefined
  const [row] = await sql<ScheduledRow[]>`SELECT * FROM scheduled_posts WHERE id = ${id} AND user_id = ${userId}`
  return row && scheduledOf(row)
}

export async function putScheduledPost(sql: Queryable, scheduled: ScheduledPostRecord): Promise<boolean> {
  if (!isUuid(scheduled.userId) || !isUuid(scheduled._id)) return false
  const rows = await sql`
    INSERT INTO scheduled_posts (id, user_id, scheduled_at, post_data, created_at)
    SELECT ${scheduled._id}, id, ${scheduled.scheduledAt}, ${sql.json({ ...scheduled.postData })},
      ${scheduled.createdAt}
    FROM users WHERE id = ${scheduled.userId}
    ON CONFLICT (id) DO UPDATE SET scheduled_at = EXCLUDED.scheduled_at, post_data = EXCLUDED.post_data
      WHERE scheduled_posts.user_id = EXCLUDED.user_id
    RETURNING id`
  return rows.length > 0
}

/** The DELETE takes the row's lock: a second transaction taking the same post waits, then finds it gone. */
export async function takeScheduledPost(
  sql: Queryable,
  userId: string,
  id: string,
  at: string,
): Promise<ScheduledPostRecord | undefined> {
  if (!isUuid(userId) || !isUuid(id)) return undefined
  const [row] = await sql<ScheduledRow[]>`
    DELETE FROM scheduled_posts WHERE id = ${id} AND user_id = ${userId} AND scheduled_at <= ${at} RETURNING *`
  return row && scheduledOf(row)
}

export async function removeScheduledPost(sql: Queryable, userId: string, id: string): Promise<boolean> {
  if (!isUuid(userId) || !isUuid(id)) return false
  const rows = await sql`DELETE FROM scheduled_posts WHERE id = ${id} AND user_id = ${userId} RETURNING id`
  return rows.length > 0
}

/** What the embedded store keeps on its records, as rows of these tables (a move to PostgreSQL). */
export function postPlanRows(
  users: readonly { _id: string; scheduledPosts?: readonly ScheduledPostRecord[] }[],
  posts: readonly { _id: string; versions?: readonly PostVersionRecord[] }[],
) {
  return {
    scheduled: users.flatMap((user) =>
      (user.scheduledPosts ?? []).map((each) => ({
        id: each._id,
        user_id: user._id,
        scheduled_at: each.scheduledAt,
        post_data: JSON.stringify(each.postData),
        created_at: each.createdAt,
      })),
    ),
    versions: posts.flatMap((post) =>
      (post.versions ?? []).map((version, seq) => ({
        post_id: post._id,
        seq,
        content: version.content,
        spoiler_text: version.spoilerText ?? null,
        media: JSON.stringify(mediaJson(version.media)),
        poll_options: version.pollOptions ? [...version.pollOptions] : null,
        edited_at: version.editedAt,
      })),
    ),
  }
}
