import { CorruptDatabaseError } from './durable-file.js'
import { ShardedFiles } from './sharded-files.js'
import { KINDS, type Kind } from './layout.js'
import type { Database } from './types.js'

/**
 * The whole database of a data directory, read and written without opening a store: for tools that
 * build data sets offline (npm run seed:large) and for tests that look at what reached the disk.
 * The directory must not be in use by a running server.
 */
export async function readDatabaseFiles(dataDir: string): Promise<Database> {
  // A server flushing meanwhile may replace a shard between our reading db.json and reading the shard: read again.
  for (let attempt = 1; ; attempt++) {
    try {
      const database = await new ShardedFiles(dataDir).read()
      if (database === null) throw new Error(`${dataDir} holds no database`)
      return database
    } catch (error) {
      if (attempt >= 5 || !(error instanceof CorruptDatabaseError)) throw error
    }
  }
}

/** Replaces whatever database `dataDir` holds with `database`, in the store's own layout and with its guarantees. */
export async function writeDatabaseFiles(dataDir: string, database: Database): Promise<void> {
  const files = new ShardedFiles(dataDir)
  // A damaged database is being replaced anyway; its shard files are cleared first so no name collides.
  const readable = await files.read().then(
    () => true,
    () => false,
  )
  if (!readable) await files.removeStrays()
  files.load(database, true)
  const records = Object.fromEntries(
    KINDS.map((kind) => [kind, new Map<string, object>((database[kind] ?? []).map((record) => [record._id, record]))]),
  ) as Record<Kind, Map<string, object>>
  await files.commit(files.prepare((kind, id) => records[kind].get(id)))
  await files.removeStrays()
}
