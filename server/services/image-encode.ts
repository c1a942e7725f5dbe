import sharp, { type FormatEnum, type Metadata, type Sharp } from 'sharp'
import { MSG, unsupportedMediaType } from '../errors.js'
import type { ImageType } from './image-type.js'

/** Larger images cost a browser (and the re-encoding here) too much memory to decode. */
const MAX_IMAGE_SIDE = 16_384
/** Counted over every frame of an animation: that is what a decoder holds. */
const MAX_IMAGE_PIXELS = 50_000_000

export interface EncodedImage {
  data: Buffer
  /** The size a viewer shows: upright, and one frame of an animation. */
  width: number
  height: number
}

export const notImage = () => unsupportedMediaType(MSG.uploadNotImage)

/** Whatever a sharp step throws (damaged data, a file cut short) means the upload is no image sharp can decode. */
async function orNotImage<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch {
    throw notImage()
  }
}

const FORMATS: Record<ImageType, keyof FormatEnum> = { jpg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp' }

/** The same format out as in. A lossy image is already one generation down, so the quality is high enough not to show a second. */
const ENCODERS: Record<ImageType, (image: Sharp, header: Metadata) => Sharp> = {
  jpg: (image) => image.jpeg({ quality: 90 }),
  png: (image, header) => image.png({ palette: header.isPalette }),
  gif: (image) => image.gif(),
  webp: (image) => image.webp({ quality: 90 }),
}

/**
 * The pixels a decode of the image would hold, every frame counted, read from its header alone;
 * undefined when the bytes are no image of their sniffed type.
 */
export async function pixelsOf(input: Buffer, type: ImageType): Promise<number | undefined> {
  try {
    const header = await sharp(input, { animated: true, limitInputPixels: false }).metadata()
    return header.format === FORMATS[type] ? header.width * header.height : undefined
  } catch {
    return undefined
  }
}

/**
 * Decodes an upload and writes it anew from its pixels alone: no metadata (EXIF with its GPS position,
 * comments, text chunks) and nothing after the image survives, so neither a privacy leak nor markup
 * hidden in a polyglot reaches the media folder. Animations keep their frames, delays and loop count.
 */
export async function reencodeImage(input: Buffer, type: ImageType): Promise<EncodedImage> {
  // The header alone, never the pixels: a GIF's frames may be far larger than the screen it declares, and the header tells.
  const header = await orNotImage(() => sharp(input, { animated: true, limitInputPixels: false }).metadata())
  if (header.format !== FORMATS[type]) throw notImage()
  const frameHeight = header.pageHeight ?? header.height
  if (
    header.width > MAX_IMAGE_SIDE ||
    frameHeight > MAX_IMAGE_SIDE ||
    header.width * header.height > MAX_IMAGE_PIXELS
  ) {
    throw unsupportedMediaType(MSG.imageTooManyPixels)
  }
  // limitInputPixels holds the decoder itself to the same bound, whatever the header said.
  let image = sharp(input, { animated: true, limitInputPixels: MAX_IMAGE_PIXELS })
  // libvips turns animations by 180° only; the frames of one are kept as stored, and so reported.
  if ((header.pages ?? 1) === 1) image = image.autoOrient()
  const { data, info } = await orNotImage(() => ENCODERS[type](image, header).toBuffer({ resolveWithObject: true }))
  return { data, width: info.width, height: info.pageHeight ?? info.height }
}
