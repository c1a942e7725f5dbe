import { randomUUID } from 'node:crypto'
import { mkdir, open, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import { AppError, MSG } from '../errors.js'
import { MAX_UPLOAD_BYTES } from '../schemas/media.js'
import { sniffImageType } from './image-type.js'

export interface Upload {
  /** The file's bytes as they arrive. */
  stream: AsyncIterable<Buffer>
  /** True when the stream stopped at the size limit. */
  truncated: () => boolean
}

const HEAD_BYTES = 64

function isTooLarge(error: unknown) {
  return (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
}

/** Stores uploaded images under server-chosen names in DATA_DIR/media. */
export function createMediaService({ mediaDir }: { mediaDir: string }) {
  return {
    async save(upload: Upload): Promise<{ url: string }> {
      await mkdir(mediaDir, { recursive: true })
      const temp = path.join(mediaDir, `.upload-${randomUUID()}`)
      const handle = await open(temp, 'wx', 0o644)
      let head = Buffer.alloc(0)
      let size = 0
      try {
        for await (const chunk of upload.stream) {
          size += chunk.length
          if (size > MAX_UPLOAD_BYTES) throw new AppError(413, MSG.uploadTooLarge)
          if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk]).subarray(0, HEAD_BYTES)
          await handle.write(chunk)
        }
        if (upload.truncated()) throw new AppError(413, MSG.uploadTooLarge)
        const type = sniffImageType(head)
        if (!type) throw new AppError(415, MSG.uploadNotImage)
        await handle.sync()
        await handle.close()
        const name = `${randomUUID()}.${type}`
        await rename(temp, path.join(mediaDir, name))
        return { url: `/media/${name}` }
      } catch (error) {
        await handle.close().catch(() => {})
        await unlink(temp).catch(() => {})
        if (isTooLarge(error)) throw new AppError(413, MSG.uploadTooLarge)
        throw error
      }
    },
  }
}

export type MediaService = ReturnType<typeof createMediaService>
