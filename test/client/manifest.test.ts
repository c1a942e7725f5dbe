import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import t from 'tap'

const CLIENT = new URL('../../client/', import.meta.url)

await t.test('the web app manifest names the app, is linked from the page, and its icons exist', async (t) => {
  const manifest = JSON.parse(await readFile(new URL('public/manifest.webmanifest', CLIENT), 'utf8')) as {
    name: string
    short_name: string
    start_url: string
    display: string
    icons: { src: string; sizes: string; type: string }[]
  }
  t.equal(manifest.name, 'Chirp')
  t.equal(manifest.short_name, 'Chirp')
  t.equal(manifest.start_url, '/')
  t.equal(manifest.display, 'standalone')
  const sizes = manifest.icons.map((icon) => icon.sizes)
  t.ok(sizes.includes('192x192') && sizes.includes('512x512'), 'the two sizes an install asks for')
  for (const icon of manifest.icons) t.ok(existsSync(new URL(`public${icon.src}`, CLIENT)), `${icon.src} is shipped`)
  const html = await readFile(new URL('index.html', CLIENT), 'utf8')
  t.match(html, /<link rel="manifest" href="\/manifest\.webmanifest" \/>/)
})

await t.test("Chirp's own mark: the favicon, the install icons and the logo draw one speech bubble", async (t) => {
  const { MARK } = await import('../../client/components/logo.js')
  const { APP_ICON_SIZES, renderIcon } = await import('../../scripts/icons.js')
  const sharp = (await import('sharp')).default
  for (const file of ['favicon.svg', 'icon.svg']) {
    const svg = await readFile(new URL(`public/${file}`, CLIENT), 'utf8')
    t.ok(svg.includes(`d="${MARK.bubble}"`), `${file} draws the bubble`)
    for (const wave of MARK.waves) t.ok(svg.includes(`d="${wave}"`), `${file} draws its waves`)
    t.notMatch(svg, /c3\.5 1 7\.5\.3 10-2\.3/, `${file} no longer draws a bird`)
  }
  const svgFile = new URL('public/icon.svg', CLIENT).pathname
  for (const size of APP_ICON_SIZES) {
    const shipped = await sharp(new URL(`public/icon-${size}.png`, CLIENT).pathname)
      .raw()
      .toBuffer({ resolveWithObject: true })
    const fresh = await sharp(await renderIcon(svgFile, size))
      .raw()
      .toBuffer({ resolveWithObject: true })
    t.same([shipped.info.width, shipped.info.height], [size, size], `icon-${size}.png is ${size} pixels a side`)
    t.ok(shipped.data.equals(fresh.data), `icon-${size}.png is icon.svg as it is now (npm run icons)`)
  }
})
