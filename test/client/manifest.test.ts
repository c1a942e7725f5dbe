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
