export type ImageType = 'jpg' | 'png' | 'gif' | 'webp'

export interface ImageHeader {
  type: ImageType
  width: number
  height: number
}

/** What a header reader knows so far: the header, `'more'` while it needs more bytes, `undefined` for not an image. */
export type HeaderVerdict = ImageHeader | 'more' | undefined

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte)

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0))

/** The image type told by a file's first bytes; its name and declared type are never trusted. */
export function sniffImageType(head: Uint8Array): ImageType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpg'
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'gif'
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp'
  return undefined
}

export const MIME_TYPES: Record<ImageType, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
}

/** A size of zero is no image. */
const header = (type: ImageType, width: number, height: number): HeaderVerdict =>
  width > 0 && height > 0 ? { type, width, height } : undefined

/** PNG, GIF and WebP give their size within the first 30 bytes. */
function fixedHeader(type: Exclude<ImageType, 'jpg'>, b: Buffer): HeaderVerdict {
  if (type === 'gif') return b.length < 10 ? 'more' : header(type, b.readUInt16LE(6), b.readUInt16LE(8))
  if (type === 'png') {
    if (b.length < 24) return 'more'
    // The first chunk must be IHDR, 13 bytes long.
    if (b.readUInt32BE(8) !== 13 || !startsWith(b, ascii('IHDR'), 12)) return undefined
    return header(type, b.readUInt32BE(16), b.readUInt32BE(20))
  }
  const chunk = b.toString('latin1', 12, 16)
  if (chunk === 'VP8L') {
    if (b.length < 25) return 'more'
    if (b[20] !== 0x2f) return undefined
    const bits = b.readUInt32LE(21)
    return header(type, (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
  }
  if (b.length < 30) return b.length < 16 || chunk === 'VP8 ' || chunk === 'VP8X' ? 'more' : undefined
  if (chunk === 'VP8 ') {
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return undefined
    return header(type, b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff)
  }
  if (chunk === 'VP8X') return header(type, b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1)
  return undefined
}

/** JPEG markers that start a frame and carry its size; C4, C8 and CC share the range but are not frames. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

/**
 * Reads an upload's type and pixel size from its first bytes, as they stream in, without decoding it.
 * A JPEG's size sits in its frame header, which may follow megabytes of metadata; the reader walks the
 * segments and keeps only the few bytes it still needs, so its memory stays bounded by one chunk.
 */
export class ImageHeaderReader {
  #buf: Buffer = Buffer.alloc(0)
  /** Where #buf starts in the file. */
  #base = 0
  /** JPEG: where the next marker starts in the file. */
  #next = 2
  /** Bytes still to come that lie before #next and need not be kept. */
  #skip = 0
  #type: ImageType | undefined
  #verdict: HeaderVerdict = 'more'

  push(chunk: Buffer): HeaderVerdict {
    if (this.#verdict !== 'more') return this.#verdict
    if (this.#skip >= chunk.length) {
      this.#skip -= chunk.length
      return 'more'
    }
    chunk = chunk.subarray(this.#skip)
    this.#skip = 0
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk])
    if (this.#type === undefined) {
      if (this.#buf.length < 12) return 'more'
      this.#type = sniffImageType(this.#buf)
      if (this.#type === undefined) return (this.#verdict = undefined)
    }
    this.#verdict = this.#type === 'jpg' ? this.#walkJpeg() : fixedHeader(this.#type, this.#buf)
    return this.#verdict
  }

  /** The verdict once the file has ended: a header still incomplete means not an image. */
  finish(): ImageHeader | undefined {
    return this.#verdict === 'more' ? undefined : this.#verdict
  }

  #walkJpeg(): HeaderVerdict {
    for (;;) {
      const i = this.#next - this.#base
      if (i + 4 > this.#buf.length) return this.#keepFromNext()
      if (this.#buf[i] !== 0xff) return undefined
      const marker = this.#buf[i + 1] as number
      if (marker === 0xff) {
        this.#next += 1 // fill byte
        continue
      }
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        this.#next += 2 // markers without a length
        continue
      }
      // A second image start, the end, or the scan data before any frame header: not a well-formed JPEG.
      if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) return undefined
      const length = this.#buf.readUInt16BE(i + 2)
      if (length < 2) return undefined
      if (isStartOfFrame(marker)) {
        if (i + 9 > this.#buf.length) return this.#keepFromNext()
        return header('jpg', this.#buf.readUInt16BE(i + 7), this.#buf.readUInt16BE(i + 5))
      }
      this.#next += 2 + length
    }
  }

  /** Drops what lies before the next marker, and notes how much of what is still to come to drop too. */
  #keepFromNext(): 'more' {
    const end = this.#base + this.#buf.length
    this.#skip = Math.max(0, this.#next - end)
    this.#buf = this.#buf.subarray(Math.min(this.#next, end) - this.#base)
    this.#base = Math.min(this.#next, end) + this.#skip
    return 'more'
  }
}
