import path from 'node:path'
import { pathToFileURL } from 'node:url'
import sharp from 'sharp'

/** The install icons the manifest names, each rendered from the one drawing of the mark. */
export const APP_ICON_SIZES = [192, 512] as const

/** The PNG of `svgFile` at `size` pixels a side, drawn at a density that makes it sharp at that size. */
export function renderIcon(svgFile: string, size: number): Promise<Buffer> {
  // The SVG is 32 units a side at 72 dpi: this density draws it at `size` pixels without scaling a bitmap up.
  return sharp(svgFile, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer()
}

/** `npm run icons`: client/public/icon-192.png and icon-512.png again, after a change to client/public/icon.svg. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = path.resolve('client/public')
  for (const size of APP_ICON_SIZES) {
    const png = await renderIcon(path.join(dir, 'icon.svg'), size)
    await sharp(png).toFile(path.join(dir, `icon-${size}.png`))
    process.stdout.write(`client/public/icon-${size}.png: ${png.length} bytes\n`)
  }
}
