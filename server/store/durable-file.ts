import { open, readFile, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import type { Adapter } from 'lowdb'
import { StartupError } from '../errors.js'

export class CorruptDatabaseError extends StartupError {
  constructor(file: string, reason: string) {
    super(
      `${file} could not be read (${reason}). Chirp will not start over a damaged database, and has left the file ` +
        'untouched: restore it from a backup, or move it away to start with a freshly seeded one.',
    )
  }
}

/**
 * The new file was renamed into place, but the directory holding it could not be synced. The directory
 * names the new file now, and may still after a crash: whatever that file refers to must be kept.
 */
export class UnsyncedReplaceError extends Error {
  constructor(file: string, cause: unknown) {
    super(`${file} was replaced, but its directory could not be synced`, { cause })
    this.name = 'UnsyncedReplaceError'
  }
}

/**
 * A lowdb adapter whose writes survive a crash: the data goes to a temporary file, which is fsync'd
 * and then renamed over the old one, and the directory is fsync'd so the rename itself is durable.
 * A reader therefore sees the old file or the new one, never half of either.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly #file: string
  readonly #validate: (data: unknown) => data is T

  constructor(file: string, validate: (data: unknown) => data is T) {
    this.#file = file
    this.#validate = validate
  }

  async read(): Promise<T | null> {
    let bytes: Buffer
    try {
      bytes = await readFile(this.#file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    // The bytes decoded at once make one flat string. Read as text, a file came in pieces joined into one
    // and then copied flat, and trimming the whole of it made another copy: three times a file's size in
    // garbage, kept in a large database's heap after its start.
    const text = bytes.toString('utf8')
    if (!/\S/.test(text)) throw new CorruptDatabaseError(this.#file, 'the file is empty')
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (error) {
      throw new CorruptDatabaseError(this.#file, `invalid JSON: ${(error as Error).message}`)
    }
    if (!this.#validate(data)) throw new CorruptDatabaseError(this.#file, 'it is not a Chirp database')
    return data
  }

  async write(data: T): Promise<void> {
    await writeFileDurably(this.#file, JSON.stringify(data))
  }
}

/**
 * Replaces `file` atomically and durably: the contents go to a temporary file, which is fsync'd and
 * renamed over the old one, and the directory is fsync'd so that the rename itself survives a crash.
 * A failure after the rename is an UnsyncedReplaceError, so a caller can tell that the new file is in place.
 * @public test/server/security-store.test.ts imports it with its file system swapped (t.mockImport).
 */
export async function writeFileDurably(file: string, contents: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`
  await writeSyncedFile(temp, contents, 'w')
  await rename(temp, file).catch(async (error: unknown) => {
    // A failed rename must not leave its temporary file behind.
    await unlink(temp).catch(() => {})
    throw error
  })
  await syncDirectory(path.dirname(file)).catch((error: unknown) =>
    Promise.reject(new UnsyncedReplaceError(file, error)),
  )
}

/**
 * Writes `contents` to `file` and fsyncs it; `wx` refuses to touch a file that already exists. A failed
 * write removes what it left. The new name is durable only once its directory has been synced.
 */
export async function writeSyncedFile(
  file: string,
  contents: string | Uint8Array,
  flag: 'w' | 'wx' = 'wx',
): Promise<void> {
  const handle = await open(file, flag, 0o600)
  try {
    await handle.writeFile(contents)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await unlink(file).catch(() => {})
    throw error
  }
  await handle.close()
}

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
