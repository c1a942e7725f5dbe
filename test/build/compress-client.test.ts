import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import t from 'tap'
import { compressClient, MIN_BYTES } from '../../scripts/client-build/compress.js'
import { tempDataDir } from '../helpers/app.js'

await t.test('text files past the minimum get a .br and a .gz copy that inflate to the file', async (t) => {
  const dir = await tempDataDir(t)
  await mkdir(path.join(dir, 'assets'))
  const css = `.post { color: red; }\n`.repeat(200)
  await writeFile(path.join(dir, 'assets', 'index-1.css'), css)
  await writeFile(path.join(dir, 'index.html'), `<!doctype html>${'<p>Chirp</p>'.repeat(200)}`)
  const done = await compressClient(dir)
  t.equal(done.length, 2)
  const file = path.join(dir, 'assets', 'index-1.css')
  t.equal(brotliDecompressSync(await readFile(`${file}.br`)).toString(), css)
  t.equal(gunzipSync(await readFile(`${file}.gz`)).toString(), css)
  t.ok(
    done.every((entry) => (entry.br ?? Infinity) < entry.bytes && (entry.gz ?? Infinity) < entry.bytes),
    'sizes reported',
  )
})

await t.test('images, tiny files and files that would not shrink are left alone', async (t) => {
  const dir = await tempDataDir(t)
  await writeFile(path.join(dir, 'icon-192.png'), Buffer.alloc(4096, 1))
  await writeFile(path.join(dir, 'tiny.js'), 'export {}\n'.padEnd(MIN_BYTES - 1, ' '))
  // Random bytes do not compress: a copy would be larger than the file.
  await writeFile(path.join(dir, 'noise.js'), randomBytes(4096))
  await writeFile(path.join(dir, 'noise.js.br'), 'a copy from an earlier build')
  const done = await compressClient(dir)
  t.strictSame(
    done.map((entry) => path.basename(entry.file)),
    ['noise.js'],
  )
  t.strictSame(
    (await readdir(dir)).sort(),
    ['icon-192.png', 'noise.js', 'tiny.js'],
    'no copies, and the stale one removed',
  )
})
