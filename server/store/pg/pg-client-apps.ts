import { markerId, type MarkerTimeline } from '../client-app-types.js'
import type { AppRecord, AuthorizationCodeRecord, LocalCounts, MarkerRecord } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

/** The Mastodon client API's apps, codes and markers on PostgreSQL (migration 25). */

interface AppRow {
  client_id: string
  secret_hash: string
  name: string
  website: string | null
  redirect_uris: string[]
  scopes: string[]
  created_at: Date
}

interface CodeRow {
  code_hash: string
  client_id: string
  user_id: string
  redirect_uri: string
  scopes: string[]
  code_challenge: string | null
  expires_at: Date
  created_at: Date
}

interface MarkerRow {
  user_id: string
  timeline: MarkerTimeline
  last_read_id: string
  version: number
  updated_at: Date
}

const appOf = (row: AppRow): AppRecord => ({
  _id: row.client_id,
  secretHash: row.secret_hash,
  name: row.name,
  website: row.website,
  redirectUris: row.redirect_uris,
  scopes: row.scopes,
  createdAt: row.created_at.toISOString(),
})

const codeOf = (row: CodeRow): AuthorizationCodeRecord => ({
  _id: row.code_hash,
  appId: row.client_id,
  userId: row.user_id,
  redirectUri: row.redirect_uri,
  scopes: row.scopes,
  codeChallenge: row.code_challenge,
  expiresAt: row.expires_at.toISOString(),
  createdAt: row.created_at.toISOString(),
})

const markerOf = (row: MarkerRow): MarkerRecord => ({
  _id: markerId(row.user_id, row.timeline),
  userId: row.user_id,
  timeline: row.timeline,
  lastReadId: row.last_read_id,
  version: row.version,
  updatedAt: row.updated_at.toISOString(),
})

export async function getApp(sql: Queryable, id: string): Promise<AppRecord | undefined> {
  const [row] = await sql<AppRow[]>`SELECT * FROM oauth_apps WHERE client_id = ${id}`
  return row && appOf(row)
}

export async function countCommunity(sql: Queryable): Promise<LocalCounts> {
  const [row] = await sql<{ users: string; posts: string; comments: string }[]>`
    SELECT (SELECT count(*) FROM users WHERE NOT pending AND remote IS NULL) AS users, (SELECT count(*) FROM posts) AS posts,
      (SELECT count(*) FROM comments) AS comments`
  return { users: Number(row?.users ?? 0), posts: Number(row?.posts ?? 0), comments: Number(row?.comments ?? 0) }
}

export async function listMarkers(sql: Queryable, userId: string): Promise<MarkerRecord[]> {
  if (!isUuid(userId)) return []
  const rows = await sql<MarkerRow[]>`SELECT * FROM markers WHERE user_id = ${userId}`
  return rows.map(markerOf)
}

export async function createApp(sql: Queryable, app: AppRecord): Promise<void> {
  await sql`
    INSERT INTO oauth_apps (client_id, secret_hash, name, website, redirect_uris, scopes, created_at)
    VALUES (${app._id}, ${app.secretHash}, ${app.name}, ${app.website}, ${[...app.redirectUris]},
      ${[...app.scopes]}, ${app.createdAt})`
}

export async function addAuthorizationCode(sql: Queryable, code: AuthorizationCodeRecord, at: string): Promise<void> {
  if (!isUuid(code.userId)) return
  await sql`DELETE FROM oauth_codes WHERE expires_at <= ${at}`
  await sql`
    INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, scopes, code_challenge, expires_at, created_at)
    SELECT ${code._id}, a.client_id, u.id, ${code.redirectUri}, ${[...code.scopes]}, ${code.codeChallenge},
      ${code.expiresAt}, ${code.createdAt}
    FROM oauth_apps a, users u WHERE a.client_id = ${code.appId} AND u.id = ${code.userId}`
}

/** The delete is the check: of two instances trading one code at once, one row comes back to one of them. */
export async function takeAuthorizationCode(
  sql: Queryable,
  id: string,
  at: string,
): Promise<AuthorizationCodeRecord | undefined> {
  const [row] = await sql<CodeRow[]>`DELETE FROM oauth_codes WHERE code_hash = ${id} RETURNING *`
  return row && row.expires_at.toISOString() > at ? codeOf(row) : undefined
}

export async function setMarker(
  sql: Queryable,
  userId: string,
  timeline: MarkerTimeline,
  lastReadId: string,
  at: string,
): Promise<MarkerRecord | undefined> {
  if (!isUuid(userId)) return undefined
  const [row] = await sql<MarkerRow[]>`
    INSERT INTO markers (user_id, timeline, last_read_id, version, updated_at)
    SELECT id, ${timeline}, ${lastReadId}, 1, ${at} FROM users WHERE id = ${userId}
    ON CONFLICT (user_id, timeline) DO UPDATE
      SET last_read_id = EXCLUDED.last_read_id, version = markers.version + 1, updated_at = EXCLUDED.updated_at
    RETURNING *`
  return row && markerOf(row)
}
