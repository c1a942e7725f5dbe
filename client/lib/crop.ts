/**
 * The geometry of the profile image cropper: an image shown behind a frame of `frame` pixels, scaled to
 * cover it at zoom 1 and `zoom` times that beyond, its top-left corner at `offset` (frame pixels, never
 * positive, never leaving a gap in the frame).
 */
export interface Size {
  width: number
  height: number
}
export interface Point {
  x: number
  y: number
}
/** The part of the source image that ends up in the frame, in the source's own pixels. */
export interface CropArea {
  x: number
  y: number
  width: number
  height: number
}

/** How many frame pixels one source pixel takes at `zoom`. */
export const scaleOf = (natural: Size, frame: Size, zoom: number) =>
  Math.max(frame.width / natural.width, frame.height / natural.height) * zoom

/** The offset moved as far as it may go towards `wanted` while the image still covers the frame. */
export function clampOffset(wanted: Point, natural: Size, frame: Size, zoom: number): Point {
  const scale = scaleOf(natural, frame, zoom)
  const clamp = (value: number, shown: number, room: number) => Math.min(0, Math.max(room - shown, value))
  return {
    x: clamp(wanted.x, natural.width * scale, frame.width),
    y: clamp(wanted.y, natural.height * scale, frame.height),
  }
}

/** The image centred in the frame. */
export function centred(natural: Size, frame: Size, zoom: number): Point {
  const scale = scaleOf(natural, frame, zoom)
  return { x: (frame.width - natural.width * scale) / 2, y: (frame.height - natural.height * scale) / 2 }
}

/** A new zoom that keeps the point at the frame's centre where it is. */
export function rezoom(offset: Point, natural: Size, frame: Size, from: number, to: number): Point {
  const before = scaleOf(natural, frame, from)
  const after = scaleOf(natural, frame, to)
  const centreX = (frame.width / 2 - offset.x) / before
  const centreY = (frame.height / 2 - offset.y) / before
  const wanted = { x: frame.width / 2 - centreX * after, y: frame.height / 2 - centreY * after }
  return clampOffset(wanted, natural, frame, to)
}

/** What of the source the frame shows. */
export function cropArea(offset: Point, natural: Size, frame: Size, zoom: number): CropArea {
  const scale = scaleOf(natural, frame, zoom)
  return { x: -offset.x / scale, y: -offset.y / scale, width: frame.width / scale, height: frame.height / scale }
}

/** Draws `area` of the image at `src` into a canvas of `out` pixels, as a PNG file to upload. */
export async function drawCrop(src: string, area: CropArea, out: Size, name: string): Promise<File> {
  const image = new Image()
  image.src = src
  await image.decode()
  const canvas = document.createElement('canvas')
  canvas.width = out.width
  canvas.height = out.height
  const context = canvas.getContext('2d')
  if (!context) throw new Error('This browser cannot draw the image.')
  context.imageSmoothingQuality = 'high'
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, out.width, out.height)
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'))
  if (!blob) throw new Error('This browser cannot draw the image.')
  return new File([blob], name, { type: 'image/png' })
}
