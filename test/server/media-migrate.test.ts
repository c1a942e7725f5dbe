import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { runMediaMigrate } from '../../server/cli/media-migrate.js'
import type { S3Config } from '../../server/config.js'
import { buildApiApp, IMAGE_BYTES, signup } from '../helpers/api.js'
import { imageBy } from '../helpers/moderation.js'
import { openBucket, startS3 } from '../helpers/s3.js'

/** `npm run media:migrate` (DECISIONS §16): MEDIA_DIR's uploads copied into the bucket, as often as asked. */
const s3 = await startS3(t)

const lines = () => {
  const out = { log: [] as string[], error: [] as string[] }
  return { out, sink: { log: (line: string) => out.log.push(line), error: (line: string) => out.error.push(line) } }
}
const envOf = (dataDir: string, s3: S3Config) => ({
  DATA_DIR: dataDir,
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
})

await t.test(
  'copies every upload, skips what is no upload, and says what it did; again, it copies nothing',
  async (t) => {
    const first = await buildApiApp(t)
    const url = await imageBy(first, (await signup(first)).token)
    const uploads = (await first.media.names()).filter((name) => !name.startsWith('.'))
    t.equal(uploads.length, 4, "the seeded posts' three images and one upload")
    await first.app.close()
    const dir = first.config.mediaDir
    await writeFile(path.join(dir, 'notes.txt'), 'put here by hand')
    await writeFile(path.join(dir, '.upload-3b1f'), 'an upload cut short')
    await mkdir(path.join(dir, 'thumbnails'))
    const sizes = await Promise.all(uploads.map(async (name) => (await first.media.fileOf(name)).length))
    const bytes = sizes.reduce((sum, size) => sum + size, 0)

    const config = await s3.bucket()
    const env = envOf(first.dataDir, config)
    const run = lines()
    t.equal(await runMediaMigrate(env, run.sink), 0, run.out.error.join('\n'))
    t.strictSame(run.out.log, [
      "skipped .upload-3b1f: not an upload of Chirp's",
      "skipped notes.txt: not an upload of Chirp's",
      "skipped thumbnails: not an upload of Chirp's",
      `Copied 4 files (${bytes} bytes) from ${dir} to s3://${config.bucket}; 3 skipped, 0 failed.`,
    ])
    const bucket = openBucket(t, config)
    t.strictSame(await bucket.keys(), [...uploads].sort(), 'the bucket holds the uploads, under their names')
    for (const name of uploads) {
      t.ok((await bucket.read(name))?.equals(await first.media.fileOf(name)), `${name}, byte for byte`)
    }

    const again = lines()
    t.equal(await runMediaMigrate(env, again.sink), 0)
    t.equal(again.out.log.filter((line) => line.endsWith('already in the bucket')).length, 4, 'each upload is skipped')
    t.match(again.out.log.at(-1), /^Copied 0 files \(0 bytes\) .*; 7 skipped, 0 failed\.$/)

    const moved = await buildApiApp(t, { dataDir: first.dataDir, config: { s3: config } })
    const served = await moved.app.inject({ method: 'GET', url })
    t.equal(served.statusCode, 200, 'the server on the bucket serves the old /media/ URL')
    t.ok(served.rawPayload.equals(await first.media.fileOf(url)))
    const feed = (await moved.app.inject({ method: 'GET', url: '/api/posts' })).json() as {
      posts: { mediaUrl: string }[]
    }
    for (const post of feed.posts.filter((post) => post.mediaUrl.startsWith('/media/'))) {
      t.equal((await moved.app.inject({ method: 'GET', url: post.mediaUrl })).statusCode, 200, post.mediaUrl)
    }
  },
)

await t.test(
  'a copy that differs is made again; a file that cannot be copied is named, and the exit is 1',
  async (t) => {
    const api = await buildApiApp(t)
    await api.app.close()
    const config = await s3.bucket()
    const [name = ''] = (await api.media.names()).filter((entry) => !entry.startsWith('.'))
    const broken = lines()
    t.equal(await runMediaMigrate(envOf(api.dataDir, { ...config, bucket: 'no-such-bucket' }), broken.sink), 1)
    t.equal(broken.out.error.length, 3, 'each file is named')
    t.match(broken.out.error[0], /^failed [0-9a-f-]{36}\.png: .*bucket/i)
    t.match(broken.out.log.at(-1), /Copied 0 files .* 0 skipped, 3 failed\./)

    const partial = await buildApiApp(t, { config: { s3: config } })
    const other = await imageBy(partial, (await signup(partial)).token)
    await partial.app.close()
    // The bucket holds a different object under the folder's first name: it is replaced by the folder's file.
    await writeFile(path.join(api.config.mediaDir, path.basename(other)), IMAGE_BYTES.gif)
    const run = lines()
    t.equal(await runMediaMigrate(envOf(api.dataDir, config), run.sink), 0, run.out.error.join('\n'))
    // The seeded images, the same files in both, were put in the bucket by the app on it.
    t.match(run.out.log.at(-1), /^Copied 1 file \(\d+ bytes\) .*; 3 skipped, 0 failed\.$/)
    t.ok((await openBucket(t, config).read(path.basename(other)))?.equals(IMAGE_BYTES.gif), 'the folder wins')
    t.ok((await openBucket(t, config).read(name))?.equals(await api.media.fileOf(name)), 'the rest is as it was')
  },
)

await t.test('without S3_BUCKET, or without MEDIA_DIR, there is nothing to do, and it says so', async (t) => {
  const none = lines()
  t.equal(await runMediaMigrate({ DATA_DIR: '/nonexistent' }, none.sink), 1)
  t.match(none.out.error.join('\n'), /S3_BUCKET must be set: media:migrate copies MEDIA_DIR into that bucket/)
  const missing = lines()
  const env = envOf('/nonexistent-chirp-data', await s3.bucket())
  t.equal(await runMediaMigrate(env, missing.sink), 1)
  t.match(missing.out.error.join('\n'), /MEDIA_DIR \/nonexistent-chirp-data\/media does not exist/)
})
