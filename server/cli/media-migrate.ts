import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError, parseConfig } from '../config.js'
import { MEDIA_KEY } from '../media/media-storage.js'
import { createS3MediaStorage } from '../media/s3-media-storage.js'
import { runCommand, type Output } from './database-env.js'

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

/**
 * `npm run media:migrate`: copies the uploads in MEDIA_DIR into S3_BUCKET under the same names, so every
 * /media/ URL already in posts and profiles goes on working once the server runs with the bucket. It can
 * be run again at any time: a file already in the bucket at its size is skipped, so a second run copies
 * only what the first missed. MEDIA_DIR is left as it is. Exits 1 when any file could not be copied.
 */
export async function runMediaMigrate(env: Record<string, string | undefined>, out: Output): Promise<number> {
  return runCommand(
    'media:migrate',
    async () => {
      const config = parseConfig(env)
      if (!config.s3) throw new ConfigError(['S3_BUCKET must be set: media:migrate copies MEDIA_DIR into that bucket'])
      const dir = config.mediaDir
      const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new Error(`MEDIA_DIR ${dir} does not exist: there is nothing to copy`)
        throw error
      })
      const bucket = createS3MediaStorage(config.s3)
      const count = { copied: 0, bytes: 0, skipped: 0, failed: 0 }
      try {
        for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
          // Anything else in the folder (an unfinished upload, a file put there by hand) is no upload's.
          if (!entry.isFile() || !MEDIA_KEY.test(entry.name)) {
            count.skipped++
            out.log(`skipped ${entry.name}: not an upload of Chirp's`)
            continue
          }
          try {
            const data = await readFile(path.join(dir, entry.name))
            if ((await bucket.sizeOf(entry.name)) === data.length) {
              count.skipped++
              out.log(`skipped ${entry.name}: already in the bucket`)
              continue
            }
            await bucket.put(entry.name, data)
            count.copied++
            count.bytes += data.length
          } catch (error) {
            count.failed++
            out.error(`failed ${entry.name}: ${error instanceof Error ? error.message : String(error)}`)
          }
        }
      } finally {
        bucket.close()
      }
      out.log(
        `Copied ${plural(count.copied, 'file')} (${plural(count.bytes, 'byte')}) from ${dir} to ${bucket.where}; ` +
          `${count.skipped} skipped, ${count.failed} failed.`,
      )
      return count.failed > 0 ? 1 : 0
    },
    out,
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runMediaMigrate(process.env, { log: console.log, error: console.error })
}
