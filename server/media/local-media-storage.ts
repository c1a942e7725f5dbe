import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import { syncDirectory } from '../store/durable-file.js'
import { unlessMissing, type MediaStorage } from './media-storage.js'

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/** Uploads as files in one folder (MEDIA_DIR); instances on several machines share it through a shared volume. */
export function createLocalMediaStorage(dir: string): MediaStorage {
  const fileOf = (key: string) => path.join(dir, key)
  const fileInfo = async (key: string) => {
    const info = await unlessMissing(stat(fileOf(key)), isMissing)
    return info?.isFile() ? info : undefined
  }
  return {
    where: dir,
    localDir: dir,

    /**
     * Synced, renamed into place, and the folder synced. Until the reply carries its URL nothing names the
     * file, so a failure at any step removes all of it.
     */
    async put(key, data) {
      await mkdir(dir, { recursive: true })
      // A leading dot keeps a file still being written out of /media/ (the static files skip dotfiles).
      const temp = path.join(dir, `.upload-${randomUUID()}`)
      const file = fileOf(key)
      try {
        const handle = await open(temp, 'wx', 0o644)
        try {
          await handle.writeFile(data)
          await handle.sync()
        } finally {
          await handle.close()
        }
        await rename(temp, file)
        await syncDirectory(dir)
      } catch (error) {
        await Promise.all([unlink(temp).catch(() => {}), unlink(file).catch(() => {})])
        throw error
      }
    },

    async open(key) {
      const info = await fileInfo(key)
      if (!info) return undefined
      return { body: createReadStream(fileOf(key)), size: info.size, etag: undefined, lastModified: info.mtime }
    },

    async read(key) {
      return unlessMissing(readFile(fileOf(key)), isMissing)
    },

    async sizeOf(key) {
      return (await fileInfo(key))?.size
    },

    async remove(key) {
      await unlink(fileOf(key)).catch((error: unknown) => {
        if (!isMissing(error)) throw error
      })
    },

    close() {},
  }
}
