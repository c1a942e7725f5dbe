import { randomUUID } from 'node:crypto'
import { mkdir, open, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import { AppError, MSG } from '../errors.js'
import { MAX_UPLOAD_BYTES } from '../schemas/media.js'
import { ImageHeaderReader, type ImageHeader } from './image-type.js'
import { createMarkupScanner } from './markup-scan.js'

export interface Upload {
  /** The file's bytes as they arrive. */
  stream: AsyncIterable<Buffer>
  /** True when the stream stopped at the size limit. */
  truncated: () => boolean
  /** Resolves once the body has ended with nothing after the file; rejects when another part follows it. */
  finish: () => Promise<void>
}

/** Larger images cost a browser (and any later resize) too much memory to decode; a header can claim 4 gigapixels in 30 bytes. */
export const MAX_IMAGE_SIDE = 16_384
export const MAX_IMAGE_PIXELS = 50_000_000

const notImage = () => new AppError(415, MSG.uploadNotImage)

function checkHeader(header: ImageHeader | undefined): ImageHeader {
  if (!header) throw notImage()
  const { width, height } = header
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new AppError(415, MSG.imageTooManyPixels)
  }
  return header
}

/** Parser limits that mean the body held more than the one file; the client meant something by the rest. */
const EXTRA_PART_ERRORS = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT'])

/** An error from reading the upload itself: too large, more than one part, or a body that is not well-formed multipart. */
export function uploadError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const code = (error as { code?: string }).code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(413, MSG.uploadTooLarge)
  if (code !== undefined && EXTRA_PART_ERRORS.has(code)) return new AppError(400, MSG.uploadExtraPart)
  const status = (error as { statusCode?: number }).statusCode
  return new AppError(status !== undefined && status >= 400 && status < 500 ? status : 400, MSG.badUpload)
}

/**
 * Stores uploaded images under server-chosen names in DATA_DIR/media. The type and pixel size come
 * from the bytes as they stream in, and a file is refused as soon as it is too large, not an image,
 * too many pixels or carries markup; a refused file never stays on disk.
 */
export function createMediaService({ mediaDir }: { mediaDir: string }) {
  return {
    async save(upload: Upload): Promise<{ url: string }> {
      await mkdir(mediaDir, { recursive: true })
      const temp = path.join(mediaDir, `.upload-${randomUUID()}`)
      const handle = await open(temp, 'wx', 0o644)
      const reader = new ImageHeaderReader()
      const markup = createMarkupScanner()
      const chunks = upload.stream[Symbol.asyncIterator]()
      let size = 0
      try {
        for (;;) {
          const next = await chunks.next().catch((error: unknown) => Promise.reject(uploadError(error)))
          if (next.done) break
          const chunk = next.value
          size += chunk.length
          if (size > MAX_UPLOAD_BYTES) throw new AppError(413, MSG.uploadTooLarge)
          const verdict = reader.push(chunk)
          if (verdict !== 'more') checkHeader(verdict)
          if (markup.found(chunk)) throw notImage()
          await handle.write(chunk)
        }
        if (upload.truncated()) throw new AppError(413, MSG.uploadTooLarge)
        await upload.finish()
        const { type } = checkHeader(reader.finish())
        await handle.sync()
        await handle.close()
        const name = `${randomUUID()}.${type}`
        await rename(temp, path.join(mediaDir, name))
        return { url: `/media/${name}` }
      } catch (error) {
        await handle.close().catch(() => {})
        await unlink(temp).catch(() => {})
        throw error
      }
    },
  }
}

export type MediaService = ReturnType<typeof createMediaService>
