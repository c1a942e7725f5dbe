import { readdir } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { ImportReplySchema } from '../../server/schemas/account.js'
import { MediaReplySchema } from '../../server/schemas/media.js'
import { PostWriteReplySchema } from '../../server/schemas/posts.js'
import { UserReplySchema } from '../../server/schemas/users.js'
import { buildApiApp, expectOk, IMAGE_BYTES, multipart, signup } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { call } from '../helpers/moderation.js'
import { openBucket, startS3 } from '../helpers/s3.js'
import { makeZip, readZip } from '../helpers/zip.js'

/**
 * Uploads in a bucket of an S3-compatible server (DECISIONS §16): with S3_BUCKET set, every upload goes
 * to the bucket and nothing to MEDIA_DIR; Chirp serves /media/ from it, or S3_PUBLIC_URL names the
 * objects; instances sharing the bucket share the uploads. The server is a real one, started here.
 */
const s3 = await startS3(t)
const PUBLIC = 'https://media.example.test/chirp'

const upload = async (api: TestApp, token: string, image = IMAGE_BYTES.png) => {
  const res = await api.as(token, {
    method: 'POST',
    url: '/api/media',
    ...multipart('file', 'a.png', 'image/png', image),
  })
  return expectOk(t, res, 201, MediaReplySchema, 'upload')
}
const keyOf = (url: string) => path.basename(url)
const folderEntries = (dir: string) =>
  readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)))

await t.test(
  'with S3_BUCKET every upload goes to the bucket, typed and cached, and nothing to MEDIA_DIR',
  async (t) => {
    const config = await s3.bucket()
    const api = await buildApiApp(t, { config: { s3: config } })
    const bucket = openBucket(t, config)
    const seeded = await bucket.keys()
    t.equal(seeded.length, 3, "the seeded posts' images are in the bucket")
    const me = await signup(api)
    const post = await upload(api, me.token, IMAGE_BYTES.jpg)
    const avatar = await upload(api, me.token)
    const banner = await upload(api, me.token, IMAGE_BYTES.webp)
    t.match(post.url, /^\/media\/[0-9a-f-]{36}\.jpg$/, 'without a public URL, Chirp serves it at /media/')
    const edited = await call(api, me.token, 'POST', '/api/users/edit', {
      avatarURL: avatar.url,
      bannerURL: banner.url,
    })
    t.match(expectOk(t, edited, 201, UserReplySchema, 'profile').user, { avatarURL: avatar.url, bannerURL: banner.url })
    const archive = await makeZip([
      ['posts.json', JSON.stringify([{ content: 'old', media: 'media/old.png', createdAt: '2020-01-01T00:00:00Z' }])],
      ['media/old.png', IMAGE_BYTES.png],
    ])
    const imported = await api.as(me.token, {
      method: 'POST',
      url: '/api/account/import',
      ...multipart('file', 'chirp.zip', 'application/zip', archive),
    })
    t.equal(expectOk(t, imported, 200, ImportReplySchema, 'import').imported.posts, 1)
    const posts = (await call(api, me.token, 'GET', `/api/posts/user/${me.username}`)).json() as {
      posts: { mediaUrl: string }[]
    }
    const importedImage = keyOf(posts.posts[0]?.mediaUrl ?? '')

    const keys = await bucket.keys()
    for (const [what, key] of [
      ['the post image', keyOf(post.url)],
      ['the avatar', keyOf(avatar.url)],
      ['the banner', keyOf(banner.url)],
      ['the imported image', importedImage],
    ] as const) {
      t.ok(keys.includes(key), `${what} is in the bucket`)
    }
    t.equal(keys.length, seeded.length + 4, 'and nothing else')
    const head = await bucket.head(keyOf(post.url))
    t.strictSame(head, { contentType: 'image/jpeg', cacheControl: 'public, max-age=31536000, immutable' })
    t.strictSame(await folderEntries(api.config.mediaDir), [], 'MEDIA_DIR holds nothing')
  },
)

await t.test('/media/ streams from the bucket with the headers the folder sends', async (t) => {
  const config = await s3.bucket()
  const inBucket = await buildApiApp(t, { config: { s3: config } })
  const onDisk = await buildApiApp(t)
  const token = (await signup(inBucket)).token
  const { url } = await upload(inBucket, token)
  const local = await upload(onDisk, (await signup(onDisk)).token)
  const served = await inBucket.app.inject({ method: 'GET', url })
  const fromDisk = await onDisk.app.inject({ method: 'GET', url: local.url })
  t.equal(served.statusCode, 200)
  t.ok(served.rawPayload.equals((await openBucket(t, config).read(keyOf(url))) ?? Buffer.alloc(0)), 'the object')
  for (const name of [
    'content-type',
    'cache-control',
    'x-content-type-options',
    'content-security-policy',
    'cross-origin-resource-policy',
  ]) {
    t.equal(served.headers[name], fromDisk.headers[name], `${name}: ${String(served.headers[name])}`)
  }
  t.equal(Number(served.headers['content-length']), served.rawPayload.length)
  const etag = served.headers.etag
  t.type(etag, 'string', 'with a validator')
  const again = await inBucket.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(etag) } })
  t.equal(again.statusCode, 304, 'a browser that has it is told so')
  t.equal(again.rawPayload.length, 0)
  const head = await inBucket.app.inject({ method: 'HEAD', url })
  t.equal(head.statusCode, 200)
  t.equal(head.headers['content-type'], 'image/png')
  for (const missing of [`/media/${crypto.randomUUID()}.png`, '/media/..%2fdb.json', '/media/x.png', '/media/']) {
    const res = await inBucket.app.inject({ method: 'GET', url: missing })
    t.equal(res.statusCode, 404, `${missing} is a 404`)
    const folder = await onDisk.app.inject({ method: 'GET', url: missing })
    t.strictSame(res.json(), folder.json(), `${missing}: as the folder answers`)
  }
})

await t.test('with S3_PUBLIC_URL an upload is named by it, and that URL is an upload of this server', async (t) => {
  const config = { ...(await s3.bucket()), publicUrl: PUBLIC }
  const api = await buildApiApp(t, { config: { s3: config } })
  const bucket = openBucket(t, config)
  const me = await signup(api)
  const image = await upload(api, me.token)
  t.match(image.url, new RegExp(`^${PUBLIC}/[0-9a-f-]{36}\\.png$`), 'S3_PUBLIC_URL, a slash, and the key')
  t.ok(await bucket.read(keyOf(image.url)), 'the key is in the bucket')
  const minimal = { prefer: 'return=minimal' }
  const created = await api.as(me.token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'public', mediaUrl: image.url },
    headers: minimal,
  })
  t.match(expectOk(t, created, 201, PostWriteReplySchema, 'post').post, {
    mediaUrl: image.url,
    mediaWidth: image.width,
    mediaHeight: image.height,
  })
  const lookalike = `https://elsewhere.example/chirp/${keyOf(image.url)}`
  const outside = await api.as(me.token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'elsewhere', mediaUrl: lookalike },
    headers: minimal,
  })
  const outsidePost = expectOk(t, outside, 201, PostWriteReplySchema, 'outside').post
  t.match(outsidePost, { mediaUrl: lookalike }, 'an https image of another host is taken')
  t.equal(outsidePost?.mediaWidth, undefined, 'but the same name there is no upload of ours: its size is unknown')
  const avatar = await upload(api, me.token)
  const edited = await call(api, me.token, 'POST', '/api/users/edit', { avatarURL: avatar.url, bannerURL: avatar.url })
  t.match(expectOk(t, edited, 201, UserReplySchema, 'profile').user, { avatarURL: avatar.url, bannerURL: avatar.url })
  const served = await api.app.inject({ method: 'GET', url: `/media/${keyOf(image.url)}` })
  t.equal(served.statusCode, 200, 'Chirp still serves it at /media/, as uploads made before the setting')

  const files = await readZip((await call(api, me.token, 'GET', '/api/account/export')).rawPayload)
  t.ok(files.get(`media/${keyOf(image.url)}`)?.equals((await bucket.read(keyOf(image.url))) ?? Buffer.alloc(0)))
  const deleted = await api.as(me.token, { method: 'DELETE', url: '/api/account', payload: { password: me.password } })
  t.equal(deleted.statusCode, 200, 'the account is deleted')
  // The queue's media-delete job removes them after the answer.
  const gone = async (key: string) => {
    for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50)))
      if ((await bucket.read(key)) === undefined) return true
    return false
  }
  t.ok(await gone(keyOf(image.url)), "the account's post image is deleted from the bucket")
  t.ok(await gone(keyOf(avatar.url)), 'and its avatar')
})

await t.test('two instances sharing one bucket read each other’s uploads', async (t) => {
  const config = await s3.bucket()
  const first = await buildApiApp(t, { config: { s3: config } })
  // On PostgreSQL the second shares the first's database too; on the embedded store it has its own.
  const second = await buildApiApp(t, {
    config: { s3: config },
    ...(first.schema ? { sharedSchema: first.schema } : {}),
  })
  const { url, width, height } = await upload(first, (await signup(first)).token, IMAGE_BYTES.gif)
  const served = await second.app.inject({ method: 'GET', url })
  t.equal(served.statusCode, 200, 'the other instance serves it')
  t.ok(served.rawPayload.equals(await first.media.fileOf(url)), 'byte for byte')
  const other = await signup(second)
  const created = await call(second, other.token, 'POST', '/api/posts', { content: 'found it', mediaUrl: url })
  t.match((created.json() as { post: object }).post, { mediaUrl: url, mediaWidth: width, mediaHeight: height })
  const back = await upload(second, other.token)
  t.equal((await first.app.inject({ method: 'GET', url: back.url })).statusCode, 200, 'and the other way round')
})
