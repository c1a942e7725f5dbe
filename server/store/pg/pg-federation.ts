import type { ActorKeysRecord, FederationKv } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

interface ActorKeysRow {
  rsa_public: string
  rsa_private: string
  ed25519_public: string
  ed25519_private: string
  created_at: Date
}

const keysOf = (row: ActorKeysRow): ActorKeysRecord => ({
  rsaPublic: row.rsa_public,
  rsaPrivate: row.rsa_private,
  ed25519Public: row.ed25519_public,
  ed25519Private: row.ed25519_private,
  createdAt: row.created_at.toISOString(),
})

export async function getActorKeys(sql: Queryable, userId: string): Promise<ActorKeysRecord | undefined> {
  if (!isUuid(userId)) return undefined
  const [row] = await sql<ActorKeysRow[]>`
    SELECT rsa_public, rsa_private, ed25519_public, ed25519_private, created_at FROM actor_keys WHERE user_id = ${userId}`
  return row && keysOf(row)
}

/** One statement: the insert loses to a row already there, which is then what is answered. */
export async function addActorKeys(
  sql: Queryable,
  userId: string,
  keys: ActorKeysRecord,
): Promise<ActorKeysRecord | undefined> {
  if (!isUuid(userId)) return undefined
  await sql`
    INSERT INTO actor_keys (user_id, rsa_public, rsa_private, ed25519_public, ed25519_private, created_at)
    SELECT id, ${keys.rsaPublic}, ${keys.rsaPrivate}, ${keys.ed25519Public}, ${keys.ed25519Private}, ${keys.createdAt}
    FROM users WHERE id = ${userId}
    ON CONFLICT (user_id) DO NOTHING`
  return getActorKeys(sql, userId)
}

/** How many writes of one instance pass between two deletions of expired rows. */
const PRUNE_EVERY = 1000

/** Fedify's keys and values in `federation_kv` (migration 26), shared by every instance of the database. */
export class PgFederationKv implements FederationKv {
  #writes = 0

  constructor(private readonly sql: Queryable) {}

  async get(key: string, at: string) {
    const [row] = await this.sql<{ value: string }[]>`
      SELECT value FROM federation_kv WHERE key = ${key} AND (expires_at IS NULL OR expires_at > ${at})`
    return row?.value
  }

  async set(key: string, value: string, expiresAt: string | undefined) {
    await this.sql`
      INSERT INTO federation_kv (key, value, expires_at) VALUES (${key}, ${value}, ${expiresAt ?? null})
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`
    if (++this.#writes % PRUNE_EVERY === 0) await this.#prune(new Date().toISOString())
  }

  async delete(key: string) {
    await this.sql`DELETE FROM federation_kv WHERE key = ${key}`
  }

  /** One statement each way, so the row's lock decides between instances trying at once. */
  async compareAndSet(
    key: string,
    expected: string | undefined,
    value: string,
    expiresAt: string | undefined,
    at: string,
  ) {
    const rows =
      expected === undefined
        ? await this.sql`
            INSERT INTO federation_kv (key, value, expires_at) VALUES (${key}, ${value}, ${expiresAt ?? null})
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
            WHERE federation_kv.expires_at IS NOT NULL AND federation_kv.expires_at <= ${at}
            RETURNING key`
        : await this.sql`
            UPDATE federation_kv SET value = ${value}, expires_at = ${expiresAt ?? null}
            WHERE key = ${key} AND value = ${expected} AND (expires_at IS NULL OR expires_at > ${at})
            RETURNING key`
    return rows.length === 1
  }

  async #prune(at: string) {
    await this.sql`
      DELETE FROM federation_kv WHERE key IN (
        SELECT key FROM federation_kv WHERE expires_at <= ${at} LIMIT 10000)`
  }
}
