import sharp from 'sharp'

/**
 * Images as cameras and editors write them, made with sharp: what the upload's re-encoding must strip,
 * turn upright or keep animated. Read an upload back with `readImage`.
 */
const solid = (width: number, height: number, background = '#1d9bf0') =>
  sharp({ create: { width, height, channels: 3, background } })

/** A 30 × 20 JPEG whose EXIF holds the camera's make and a GPS position, as a phone writes it. */
export const jpegWithGps = () =>
  solid(30, 20)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Chirp test camera' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer()

/** EXIF's pointer to its GPS block (tag 0x8825, little-endian as sharp writes it). */
export const hasGpsBlock = (exif: Buffer | undefined) => exif !== undefined && exif.includes(Buffer.from([0x25, 0x88]))

/** A JPEG stored 30 wide and 20 high whose EXIF orientation 6 says to show it turned a quarter clockwise: 20 × 30. */
export const sidewaysJpeg = () => solid(30, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer()

export const FRAME_DELAYS = [100, 200, 300]

/** Three 10 × 10 frames, red, blue and red again, shown for FRAME_DELAYS, looping twice. */
export async function animation(format: 'gif' | 'webp'): Promise<Buffer> {
  const frames = await Promise.all(['red', 'blue', 'red'].map((colour) => solid(10, 10, colour).png().toBuffer()))
  const joined = sharp(frames, { join: { animated: true } })
  const options = { delay: FRAME_DELAYS, loop: 2 }
  return (format === 'gif' ? joined.gif(options) : joined.webp(options)).toBuffer()
}

/** A real PNG of one colour: small on disk, however many pixels it holds. */
export const solidPng = (width: number, height: number) => solid(width, height).png().toBuffer()

/** What sharp reads from a stored file, every frame of an animation included. */
export const readImage = (data: Buffer) => sharp(data, { animated: true, limitInputPixels: false }).metadata()
