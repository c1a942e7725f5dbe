import t from 'tap'
import { ErrorsSchema } from '../../server/schemas/common.js'
import { MediaReplySchema } from '../../server/schemas/media.js'
import { PostWriteReplySchema } from '../../server/schemas/posts.js'
import { UserReplySchema } from '../../server/schemas/users.js'
import { buildApiApp, checkSchema, expectError, expectOk, IMAGE_BYTES, multipart } from '../helpers/api.js'
import {
  animation,
  FRAME_DELAYS,
  hasGpsBlock,
  jpegWithGps,
  readImage,
  sidewaysJpeg,
} from '../helpers/encoded-images.js'
import { jpegSegment, jpegWith } from '../helpers/images.js'

const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'
const TOO_LARGE = 'file must be less than 20mb'
const NOT_IMAGE = 'file must be or an Image (JPEG/PNG)'
const LIMIT = 20_971_520

const api = await buildApiApp(t)
const { app } = api
const guest = await api.login('guest')

const upload = (
  data: Buffer,
  { name = 'photo.png', type = 'image/png', field = 'file', token = guest as string | null } = {},
) => api.as(token ?? undefined, { method: 'POST', url: '/api/media', ...multipart(field, name, type, data) })
/** Stored files, leaving out the uploads still being written. */
const stored = async () => (await api.media.names()).filter((name) => !name.startsWith('.'))
/** The file an upload's URL names, as it sits in the media folder or the bucket. */
const storedFile = (url: string) => api.media.fileOf(url)

/** A PNG padded with zeros to exactly `size` bytes: the header is real, the tail is just bytes. */
const pngOfSize = (size: number) => Buffer.concat([IMAGE_BYTES.png, Buffer.alloc(size - IMAGE_BYTES.png.length)])

await t.test(
  'POST /api/media answers 201 { url, width, height }, under /media/, typed by the bytes, and serves the file in its own format',
  async (t) => {
    const cases = [
      ['png', 'image/png', 'png'],
      ['jpg', 'image/jpeg', 'jpeg'],
      ['gif', 'image/gif', 'gif'],
      ['webp', 'image/webp', 'webp'],
    ] as const
    for (const [ext, mime, format] of cases) {
      const res = await upload(IMAGE_BYTES[ext], { name: `picture.${ext}`, type: mime })
      const { url, width, height } = expectOk(t, res, 201, MediaReplySchema, ext)
      t.match(url, new RegExp(`^/media/[0-9a-f-]{36}\\.${ext}$`), `${ext}: a server-chosen name under /media/`)
      const sent = await readImage(IMAGE_BYTES[ext])
      t.strictSame([width, height], [sent.width, sent.height], `${ext}: its size in pixels`)
      const served = await app.inject({ method: 'GET', url })
      t.equal(served.statusCode, 200, `${ext}: served`)
      t.equal(served.headers['content-type'], mime, `${ext}: with its type`)
      t.ok(served.rawPayload.equals(await storedFile(url)), `${ext}: the stored file, byte for byte`)
      t.equal((await readImage(served.rawPayload)).format, format, `${ext}: re-encoded as ${format} again`)
    }
    const liar = await upload(IMAGE_BYTES.gif, { name: 'innocent.png', type: 'image/png' })
    t.match(
      expectOk(t, liar, 201, MediaReplySchema, 'named png').url,
      /\.gif$/,
      "the bytes decide, not the name or the part's type",
    )
    const octet = await upload(IMAGE_BYTES.jpg, { name: 'blob', type: 'application/octet-stream' })
    t.match(expectOk(t, octet, 201, MediaReplySchema, 'octet-stream').url, /\.jpg$/)
  },
)

await t.test('a JPEG is stored without its EXIF, so without the GPS position it carried', async (t) => {
  const photo = await jpegWithGps()
  t.ok(hasGpsBlock((await readImage(photo)).exif), 'the upload carries a GPS position')
  const { url } = expectOk(t, await upload(photo, { name: 'holiday.jpg', type: 'image/jpeg' }), 201, MediaReplySchema)
  const kept = await readImage(await storedFile(url))
  t.equal(kept.format, 'jpeg', 'still a JPEG')
  t.equal(kept.exif, undefined, 'no EXIF at all, GPS included')
  t.strictSame([kept.width, kept.height], [30, 20], 'the same picture')
})

await t.test('XMP metadata, which can carry a GPS position too, is dropped as well', async (t) => {
  const xmp =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="51,30.0N"/></rdf:RDF></x:xmpmeta>'
  const photo = jpegWith(jpegSegment(0xe1, `http://ns.adobe.com/xap/1.0/\0${xmp}`))
  t.ok((await readImage(photo)).xmp, 'the upload carries XMP')
  const { url } = expectOk(t, await upload(photo, { name: 'edited.jpg', type: 'image/jpeg' }), 201, MediaReplySchema)
  const kept = await storedFile(url)
  t.equal((await readImage(kept)).xmp, undefined, 'no XMP stored')
  t.notOk(kept.includes('GPSLatitude'), 'nor the position in any other form')
})

await t.test('a JPEG turned by its EXIF orientation is stored upright, its width and height swapped', async (t) => {
  const photo = await sidewaysJpeg()
  const sent = await readImage(photo)
  t.strictSame([sent.width, sent.height, sent.orientation], [30, 20, 6], 'stored sideways, with orientation 6')
  const reply = expectOk(t, await upload(photo, { name: 'portrait.jpg', type: 'image/jpeg' }), 201, MediaReplySchema)
  const kept = await readImage(await storedFile(reply.url))
  t.strictSame([kept.width, kept.height], [20, 30], 'turned upright')
  t.strictSame([reply.width, reply.height], [20, 30], 'and answered upright')
  t.equal(kept.orientation, undefined, 'with no orientation left to apply twice')
})

await t.test('an animated GIF or WebP stays animated, with its frames, delays and loop count', async (t) => {
  for (const format of ['gif', 'webp'] as const) {
    const { url, width, height } = expectOk(
      t,
      await upload(await animation(format), { name: `anim.${format}`, type: `image/${format}` }),
      201,
      MediaReplySchema,
    )
    t.match(url, new RegExp(`\\.${format}$`), `${format}: stored as .${format}`)
    t.strictSame([width, height], [10, 10], `${format}: the size of one frame`)
    const kept = await readImage(await storedFile(url))
    t.equal(kept.format, format, `${format}: the same format`)
    t.equal(kept.pages, 3, `${format}: every frame`)
    t.strictSame(kept.delay, FRAME_DELAYS, `${format}: each frame's delay`)
    t.equal(kept.loop, 2, `${format}: the loop count`)
  }
})

await t.test('an uploaded URL is accepted as a post mediaUrl and as an avatarURL', async (t) => {
  const { url } = (await upload(IMAGE_BYTES.png)).json() as { url: string }
  const minimal = { prefer: 'return=minimal' }
  const post = await api.as(guest, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: '', mediaUrl: url },
    headers: minimal,
  })
  t.match(expectOk(t, post, 201, PostWriteReplySchema, 'post').post, { mediaUrl: url, type: 'image' })
  // The guest's profile cannot be changed: a member's can.
  const member = await api.login('maya.lin')
  const me = await api.as(member, { method: 'POST', url: '/api/users/edit', payload: { avatarURL: url } })
  t.equal(expectOk(t, me, 201, UserReplySchema, 'avatar').user.avatarURL, url)
})

await t.test('the size limit is 20971520 bytes: one more is a 413 and leaves no file', async (t) => {
  const exact = await upload(pngOfSize(LIMIT))
  t.equal(exact.statusCode, 201, 'exactly the limit is accepted')
  const before = await stored()
  expectError(t, await upload(pngOfSize(LIMIT + 1)), 413, TOO_LARGE, 'one byte over')
  expectError(t, await upload(pngOfSize(LIMIT + 1024 * 1024)), 413, TOO_LARGE, 'a megabyte over')
  t.strictSame(await stored(), before, 'nothing was kept')
  t.strictSame(
    (await api.media.names()).filter((name) => name.startsWith('.upload-')),
    [],
    'no partial upload is left',
  )
})

await t.test('anything but a JPEG, PNG, GIF or WebP is a 415, whatever it claims to be', async (t) => {
  const before = await stored()
  const fakes: Record<string, Buffer> = {
    'text named .png': Buffer.from('this is plainly not an image, whatever its name says'),
    'an empty file': Buffer.alloc(0),
    'a PDF': Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n'),
    'an SVG': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'),
    'a BMP': Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]),
  }
  for (const [what, data] of Object.entries(fakes)) {
    expectError(t, await upload(data, { name: 'cat.png', type: 'image/png' }), 415, NOT_IMAGE, what)
  }
  t.strictSame(await stored(), before, 'nothing was kept')
})

await t.test('upload errors: no token 401, no file part 400, not multipart 4xx', async (t) => {
  expectError(t, await upload(IMAGE_BYTES.png, { token: null }), 401, INVALID_TOKEN, 'no token')
  expectError(t, await upload(IMAGE_BYTES.png, { token: 'nonsense' }), 401, INVALID_TOKEN, 'a bad token')
  expectError(t, await upload(IMAGE_BYTES.png, { field: 'image' }), 400, 'file is required', 'the wrong field')
  const json = await api.as(guest, { method: 'POST', url: '/api/media', payload: { file: 'x' } })
  t.ok(json.statusCode >= 400 && json.statusCode < 500, `a JSON body is refused (${json.statusCode})`)
  checkSchema(t, ErrorsSchema, json.json(), 'as { errors }')
})

await t.test('/media/ serves uploads only, never the files beside them', async (t) => {
  for (const url of [
    '/media/../db.json',
    '/media/%2e%2e/db.json',
    '/media/..%2fdb.json',
    '/media/',
    '/media/nothing.png',
  ]) {
    const res = await app.inject({ method: 'GET', url })
    t.not(res.statusCode, 200, `${url} is not served`)
    t.notOk(res.body.includes('passwordHash'), `${url} does not leak the database`)
  }
})
