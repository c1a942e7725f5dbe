import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { AppError, MSG, badRequest, notAcceptable, payloadTooLarge } from '../errors.js'
import { MAX_UPLOAD_BYTES, type MediaReply } from '../schemas/media.js'
import type { MediaStorage } from '../media/media-storage.js'
import type { MediaUrls } from '../media/media-urls.js'
import { notImage, pixelsOf, reencodeImage, type EncodedImage } from './image-encode.js'
import { SNIFF_BYTES, sniffImageType, type ImageType } from './image-type.js'

export interface Upload {
  /** The file's bytes as they arrive. */
  stream: AsyncIterable<Buffer>
  /** True when the stream stopped at the size limit. */
  truncated: () => boolean
  /** Resolves once the body has ended with nothing after the file; rejects when another part follows it. */
  finish: () => Promise<void>
}

/** Parser limits that mean the body held more than the one file; the client meant something by the rest. */
const EXTRA_PART_ERRORS = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT'])

/** An error from reading the upload itself: too large, more than one part, or a body that is not well-formed multipart. */
export function uploadError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const code = (error as { code?: string }).code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return payloadTooLarge(MSG.uploadTooLarge)
  if (code !== undefined && EXTRA_PART_ERRORS.has(code)) return badRequest(MSG.uploadExtraPart)
  // Besides its limits, the parser refuses on its own only a body that is not multipart at all (406).
  const status = (error as { statusCode?: number }).statusCode
  return status === 406 ? notAcceptable(MSG.badUpload) : badRequest(MSG.badUpload)
}

/**
 * The whole file, in memory (20 MiB at most), refused as soon as it is too large or its first bytes are
 * no image type, so a hostile upload is never read to its end.
 */
async function receive(upload: Upload): Promise<{ type: ImageType; bytes: Buffer }> {
  const chunks: Buffer[] = []
  const iterator = upload.stream[Symbol.asyncIterator]()
  let size = 0
  let type: ImageType | undefined
  for (;;) {
    const next = await iterator.next().catch((error: unknown) => Promise.reject(uploadError(error)))
    if (next.done) break
    size += next.value.length
    if (size > MAX_UPLOAD_BYTES) throw payloadTooLarge(MSG.uploadTooLarge)
    chunks.push(next.value)
    if (type === undefined && size >= SNIFF_BYTES) {
      type = sniffImageType(Buffer.concat(chunks))
      if (type === undefined) throw notImage()
    }
  }
  if (upload.truncated()) throw payloadTooLarge(MSG.uploadTooLarge)
  const bytes = Buffer.concat(chunks)
  type ??= sniffImageType(bytes)
  if (type === undefined) throw notImage()
  return { type, bytes }
}

/**
 * Stores uploaded images under server-chosen names in the media storage (a folder or a bucket). The type
 * comes from the bytes; the image is then decoded and written anew (image-encode.ts), so what is stored is
 * pixels the server produced. Nothing reaches the storage before every check has passed.
 */
export function createMediaService({ storage, urls }: { storage: MediaStorage; urls: MediaUrls }) {
  async function keep(type: ImageType, image: EncodedImage): Promise<MediaReply> {
    const key = `${randomUUID()}.${type}`
    await storage.put(key, image.data)
    return { url: urls.urlOf(key), width: image.width, height: image.height }
  }
  const saveImage = async (type: ImageType, bytes: Buffer) => keep(type, await reencodeImage(bytes, type))

  return {
    /** The upload of this server's a URL names, or undefined for anything else. */
    keyOf: (url: string) => urls.keyOf(url),

    /** Every URL that names an upload: a record holding any of them still shows it. */
    formsOf: (key: string) => urls.formsOf(key),

    /** Whether the upload is still stored. */
    has: async (key: string) => (await storage.sizeOf(key)) !== undefined,

    /** An upload opened for reading, or undefined when it is gone. */
    open: (key: string) => storage.open(key),

    /**
     * The pixel size of an image this server stored, read from the stored image (written upright by the
     * re-encode); undefined for anything else, or an upload that is gone.
     */
    async sizeOf(url: string): Promise<{ width: number; height: number } | undefined> {
      const key = urls.keyOf(url)
      if (key === undefined) return undefined
      try {
        const bytes = await storage.read(key)
        if (!bytes) return undefined
        const { width, height, pageHeight } = await sharp(bytes).metadata()
        return width && height ? { width, height: pageHeight ?? height } : undefined
      } catch {
        return undefined
      }
    },

    /** Deletes an upload of this server's that nothing shows any more; anything else is left alone. */
    async remove(url: string): Promise<void> {
      const key = urls.keyOf(url)
      if (key !== undefined) await storage.remove(key)
    },

    /** The pixels storing these bytes would decode (the header only); undefined when they are not an image. */
    async pixelsOf(bytes: Buffer): Promise<number | undefined> {
      const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES))
      return type && pixelsOf(bytes, type)
    },

    /** Stores an image read elsewhere (an imported archive's) as an upload is stored; undefined when it is not an image. */
    async saveBytes(bytes: Buffer): Promise<MediaReply | undefined> {
      const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES))
      if (!type) return undefined
      const image = await reencodeImage(bytes, type).catch(() => undefined)
      return image && keep(type, image)
    },

    async save(upload: Upload): Promise<MediaReply> {
      const { type, bytes } = await receive(upload)
      await upload.finish()
      return saveImage(type, bytes)
    },

    /**
     * An image the server fetched itself (a link card's), stored as an upload is: its type from its
     * bytes, then re-encoded. Refused (415) when the bytes are no image of the four types.
     */
    async saveFetched(bytes: Buffer): Promise<MediaReply> {
      const type = sniffImageType(bytes)
      if (type === undefined) throw notImage()
      return saveImage(type, bytes)
    },
  }
}

export type MediaService = ReturnType<typeof createMediaService>
