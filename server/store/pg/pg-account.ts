import type { TokenHolder, TwoFactorProof } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

/**
 * The account's own writes (docs/api-contract.md §4), each one conditional statement on the user's row or
 * two-factor row: the condition is the check, so of two instances doing the same at once only one wins.
 */

export async function setPassword(
  sql: Queryable,
  id: string,
  expected: string,
  passwordHash: string,
  at: string,
): Promise<TokenHolder | undefined> {
  if (!isUuid(id)) return undefined
  const [row] = await sql<{ id: string; username: string; token_version: number }[]>`
    UPDATE users SET password_hash = ${passwordHash}, token_version = token_version + 1, updated_at = ${at}
    WHERE id = ${id} AND password_hash = ${expected}
    RETURNING id, username, token_version`
  return row && { _id: row.id, username: row.username, tokenVersion: row.token_version }
}

export async function beginTwoFactor(sql: Queryable, id: string, secret: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const rows = await sql`
    INSERT INTO two_factor (user_id, secret, enabled) SELECT id, ${secret}, false FROM users WHERE id = ${id}
    ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = 0, recovery_codes = '{}'
    WHERE NOT two_factor.enabled
    RETURNING user_id`
  return rows.length === 1
}

export async function enableTwoFactor(
  sql: Queryable,
  id: string,
  secret: string,
  step: number,
  recoveryCodes: readonly string[],
): Promise<boolean> {
  if (!isUuid(id)) return false
  const rows = await sql`
    UPDATE two_factor SET enabled = true, last_step = ${step}, recovery_codes = ${[...recoveryCodes]}::text[]
    WHERE user_id = ${id} AND NOT enabled AND secret = ${secret}
    RETURNING user_id`
  return rows.length === 1
}

export async function useTwoFactor(sql: Queryable, id: string, proof: TwoFactorProof): Promise<boolean> {
  if (!isUuid(id)) return false
  const rows =
    'step' in proof
      ? await sql`
          UPDATE two_factor SET last_step = ${proof.step}
          WHERE user_id = ${id} AND enabled AND last_step < ${proof.step}
          RETURNING user_id`
      : await sql`
          UPDATE two_factor SET recovery_codes = array_remove(recovery_codes, ${proof.recoveryCode})
          WHERE user_id = ${id} AND enabled AND ${proof.recoveryCode} = ANY(recovery_codes)
          RETURNING user_id`
  return rows.length === 1
}

export async function disableTwoFactor(sql: Queryable, id: string): Promise<void> {
  if (!isUuid(id)) return
  await sql`DELETE FROM two_factor WHERE user_id = ${id}`
}
