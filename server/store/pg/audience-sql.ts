import type postgres from 'postgres'
import type { AudienceScope } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

type Fragment = postgres.PendingQuery<postgres.Row[]>

/**
 * PostgreSQL's reading of an AudienceScope: `AND (…)` over the post aliased `post`, inside the query and
 * before its LIMIT, so a page stays full and its cursor right; nothing when the scope keeps every post.
 * It says what services/audience.ts's mayRead and isListed say, as the embedded store's
 * audience-scope.ts does in code. Whether the reader follows an author is one probe of the follows
 * primary key, asked only of a `followers` post that did not name the reader.
 * `feedOf`: the scope is read for that reader's own home feed, whose authors are the reader and whom
 * they follow: a `followers` post there is theirs to read, and no probe is needed.
 */
export function inAudience(sql: Queryable, scope: AudienceScope | undefined, post = 'p', feedOf?: string): Fragment {
  if (!scope) return sql``
  const column = (name: string) => sql(`${post}.${name}`)
  const visibility = column('visibility')
  const open = sql`${visibility} IN ('public', 'unlisted')`
  const readerId = scope.kind === 'listed' ? undefined : scope.readerId
  if (readerId === undefined) return scope.kind === 'readable' ? sql`AND ${open}` : sql`AND ${visibility} = 'public'`
  // A reader id no account could have follows nobody and is named by no post: the open posts alone.
  if (!isUuid(readerId)) return sql`AND ${open}`
  if (scope.kind === 'shown' && feedOf === readerId) return sql`AND ${visibility} <> 'direct'`
  const author = column('author_id')
  const named = sql`(${author} = ${readerId}::uuid OR ${readerId}::uuid = ANY(${column('addressed')}))`
  const follows = sql`EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${readerId}::uuid AND f.followee_id = ${author})`
  const followers = sql`(${visibility} = 'followers' AND (${named} OR ${follows}))`
  return scope.kind === 'readable'
    ? sql`AND (${open} OR ${followers} OR (${visibility} = 'direct' AND ${named}))`
    : sql`AND (${open} OR ${followers})`
}

/** Only a post anyone may read (public or unlisted) shows as a repost, whoever reposted it (DECISIONS §12). */
export const travels = (sql: Queryable, post = 'p') => sql`AND ${sql(`${post}.visibility`)} IN ('public', 'unlisted')`
