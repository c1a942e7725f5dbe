import { randomUUID } from 'node:crypto'
import { chunk as pngChunk, gradientPng } from '../../server/seed/png.js'

/**
 * Small real images for upload tests, and hostile ones built from them. The JPEG and WebP files were
 * drawn by Chromium's canvas (3×2 pixels); the PNG is the seed's own encoder; the GIF is the classic 1×1.
 */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/' +
    '2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAMDASIAAhEBAxEB/8QA' +
    'FQABAQAAAAAAAAAAAAAAAAAAAAH/xAAaEAADAQADAAAAAAAAAAAAAAABAgMAESFB/8QAFAEBAAAAAAAAAAAAAAAAAAAAB//EABcRAAMBAAAAAAAAAAAAAAAA' +
    'AAABAjL/2gAMAwEAAhEDEQA/ALaj2q9bO1KuxZnY8lieySfTmZkeMoMb0z//2Q==',
  'base64',
)
/** Lossy WebP in an extended (VP8X) container, as browsers write it. */
export const WEBP_VP8X = Buffer.from(
  'UklGRlwAAABXRUJQVlA4WAoAAAAAAAAAAgAAAQAAVlA4ID4AAAAwAgCdASoDAAIAAUAmJagCdLoB+AH4AAAAAADicMVvPygR+GD3ko/n/1dovVxMjWfs' +
    'kf/Z+J3tD4OT/kkAAA==',
  'base64',
)
export const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')
export const PNG = gradientPng(4, 3, [29, 155, 240], [255, 255, 255], 1)

/** A RIFF/WEBP file holding one chunk. */
function webp(fourcc: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8)
  header.write(fourcc, 0, 'latin1')
  header.writeUInt32LE(data.length, 4)
  const body = Buffer.concat([Buffer.from('WEBP'), header, data, Buffer.alloc(data.length % 2)])
  const riff = Buffer.alloc(8)
  riff.write('RIFF', 0, 'latin1')
  riff.writeUInt32LE(body.length, 4)
  return Buffer.concat([riff, body])
}

/** The simple lossy form: the VP8 chunk of WEBP_VP8X on its own. */
export const WEBP_LOSSY = webp(
  'VP8 ',
  WEBP_VP8X.subarray(WEBP_VP8X.indexOf('VP8 ') + 8, WEBP_VP8X.indexOf('VP8 ') + 8 + 62),
)
export const WEBP_LOSSLESS = webp('VP8L', Buffer.from('LwJAAAAPcLLNd4j/AX7+owUTENH/CA==', 'base64'))

/** A lossless (VP8L) header of the given size; only the header, which is all the server reads. */
export function webpLossless(width: number, height: number): Buffer {
  const data = Buffer.alloc(5)
  data[0] = 0x2f
  data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1)
  return webp('VP8L', data)
}

export function webpExtended(width: number, height: number): Buffer {
  const data = Buffer.alloc(10)
  data.writeUIntLE(width - 1, 4, 3)
  data.writeUIntLE(height - 1, 7, 3)
  return webp('VP8X', data)
}

/** PNG with IHDR claiming this size, then the rest of a real 4×3 PNG (its pixels are never decoded by the server). */
export function pngSized(width: number, height: number): Buffer {
  const ihdr = Buffer.from(PNG.subarray(16, 29))
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  return Buffer.concat([PNG.subarray(0, 8), pngChunk('IHDR', ihdr), PNG.subarray(33)])
}

/** PNG with an extra chunk after IHDR, e.g. a tEXt chunk. */
export function pngWithChunk(type: string, data: Buffer | string): Buffer {
  return Buffer.concat([PNG.subarray(0, 33), pngChunk(type, Buffer.from(data)), PNG.subarray(33)])
}

export function gifSized(width: number, height: number): Buffer {
  const gif = Buffer.from(GIF)
  gif.writeUInt16LE(width, 6)
  gif.writeUInt16LE(height, 8)
  return gif
}

/**
 * A GIF with a 2-colour palette whose logical screen is `screen` and which holds `frames` frames of `frame`
 * pixels, every pixel colour 0. The pixel data is real LZW, coded arithmetically (a run of one colour
 * only ever extends the longest code), so a 400-megapixel frame takes a few hundred kilobytes and no time.
 */
export function gifWithFrames(screen: readonly [number, number], frame: readonly [number, number], frames = 1): Buffer {
  const head = Buffer.alloc(13 + 6)
  head.write('GIF89a', 0, 'latin1')
  head.writeUInt16LE(screen[0], 6)
  head.writeUInt16LE(screen[1], 8)
  head[10] = 0x80 // a global palette of 2 colours
  head.set([0, 0, 0, 255, 255, 255], 13)
  const descriptor = Buffer.alloc(10)
  descriptor[0] = 0x2c
  descriptor.writeUInt16LE(frame[0], 5)
  descriptor.writeUInt16LE(frame[1], 7)
  const image = Buffer.concat([descriptor, lzwRunOfZeros(frame[0] * frame[1])])
  return Buffer.concat([head, ...Array.from({ length: frames }, () => image), Buffer.from([0x3b])])
}

/** `count` pixels of colour 0, LZW-coded with a 2-bit minimum code size, in GIF sub-blocks. */
function lzwRunOfZeros(count: number): Buffer {
  const minimum = 2
  const clear = 1 << minimum
  const end = clear + 1
  const bytes: number[] = []
  let bits = 0
  let pending = 0
  let width = minimum + 1
  const emit = (code: number) => {
    pending |= code << bits
    bits += width
    for (; bits >= 8; bits -= 8, pending >>>= 8) bytes.push(pending & 0xff)
  }
  emit(clear)
  // The table grows by one string a code: code end + n - 1 stands for n zeros.
  let next = end + 1
  let longest = 1
  for (let left = count; left > 0;) {
    const run = Math.min(longest, left)
    emit(run === 1 ? 0 : end + run - 1)
    left -= run
    if (left === 0) break
    if (next === 4096) {
      emit(clear)
      width = minimum + 1
      next = end + 1
      longest = 1
    } else {
      if (next >= 1 << width) width++
      next++
      longest = run + 1
    }
  }
  emit(end)
  if (bits > 0) bytes.push(pending & 0xff)
  const data = Buffer.from(bytes)
  const blocks: Buffer[] = [Buffer.from([minimum])]
  for (let i = 0; i < data.length; i += 255) {
    const block = data.subarray(i, i + 255)
    blocks.push(Buffer.from([block.length]), block)
  }
  return Buffer.concat([...blocks, Buffer.from([0])])
}

/** Offset of the JPEG's SOF0 marker. */
const SOF = JPEG.indexOf(Buffer.from([0xff, 0xc0]))

export function jpegSized(width: number, height: number): Buffer {
  const jpeg = Buffer.from(JPEG)
  jpeg.writeUInt16BE(height, SOF + 5)
  jpeg.writeUInt16BE(width, SOF + 7)
  return jpeg
}

/** A JPEG segment (APPn, COM...) with its length. */
export function jpegSegment(marker: number, data: Buffer | string): Buffer {
  const body = Buffer.from(data)
  const head = Buffer.from([0xff, marker, 0, 0])
  head.writeUInt16BE(body.length + 2, 2)
  return Buffer.concat([head, body])
}

/** The JPEG with segments inserted after its SOI (before the frame header). */
export function jpegWith(...segments: Buffer[]): Buffer {
  return Buffer.concat([JPEG.subarray(0, 2), ...segments, JPEG.subarray(2)])
}

export interface Part {
  name: string
  filename?: string
  type?: string
  data: Buffer | string
}

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: Part[], boundary = `----chirp${randomUUID()}`) {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`
    const type = part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** One file in the field `file`, the way the Chirp client uploads. */
export const fileUpload = (data: Buffer | string, filename = 'photo.png', type = 'image/png') =>
  multipart([{ name: 'file', filename, type, data }])
