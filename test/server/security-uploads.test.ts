import path from 'node:path'
import t from 'tap'
import { MSG } from '../../server/errors.js'
import { MAX_UPLOAD_BYTES, type MediaReply } from '../../server/schemas/media.js'
import { MEDIA_PATH } from '../../server/services/urls.js'
import {
  fileUpload,
  GIF,
  gifSized,
  gifWithFrames,
  JPEG,
  jpegSegment,
  jpegSized,
  jpegWith,
  multipart,
  PNG,
  pngSized,
  pngWithChunk,
  WEBP_LOSSLESS,
  WEBP_LOSSY,
  WEBP_VP8X,
  webpExtended,
  webpLossless,
} from '../helpers/images.js'
import { expectedCode } from '../helpers/error-codes.js'
import { readImage, solidPng } from '../helpers/encoded-images.js'
import { buildSeededApp, listMedia as listMediaOf } from '../helpers/seeded.js'

const api = await buildSeededApp(t, { config: { rateLimit: false } })
const token = await api.login('guest')
const listMedia = () => listMediaOf(api)
const upload = (body: { payload: Buffer; headers: Record<string, string> }, auth: string | null = token) =>
  api.as(auth ?? undefined, { method: 'POST', url: '/api/media', ...body })

const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script></svg>'
const html = '<!doctype html><html><body><script>fetch("/api/users/edit")</script></body></html>'
/** A whole PNG padded with zeros to `size` bytes: the decoder stops at the image's end. */
const exactly = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)])
const appHeader = (size: number) => jpegSegment(0xe1, Buffer.alloc(size - 2, 0x20))

const FORMATS = { jpg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp' } as const
const storedFile = (url: string) => api.media.fileOf(url)

const accepted: Array<[string, Buffer, string, string, keyof typeof FORMATS]> = [
  ['a JPEG', JPEG, 'photo.jpg', 'image/jpeg', 'jpg'],
  ['a PNG', PNG, 'photo.png', 'image/png', 'png'],
  ['a GIF', GIF, 'anim.gif', 'image/gif', 'gif'],
  ['a lossy WebP', WEBP_LOSSY, 'a.webp', 'image/webp', 'webp'],
  ['a lossless WebP', WEBP_LOSSLESS, 'a.webp', 'image/webp', 'webp'],
  ['an extended WebP', WEBP_VP8X, 'a.webp', 'image/webp', 'webp'],
  ['a PNG named evil.html and sent as text/html is stored as .png', PNG, 'evil.html', 'text/html', 'png'],
  ['a JPEG named ../../db.json is stored under a fresh name', JPEG, '../../db.json', 'image/jpeg', 'jpg'],
  [
    'a JPEG whose frame header follows 3 MB of metadata',
    jpegWith(...Array.from({ length: 48 }, () => appHeader(65_000))),
    'big-exif.jpg',
    'image/jpeg',
    'jpg',
  ],
  ['a PNG of 16384 × 3000 pixels, inside the bounds', await solidPng(16_384, 3000), 'wide.png', 'image/png', 'png'],
  [
    'a GIF whose screen claims 65535 × 65535 around a 1 × 1 frame',
    gifSized(65_535, 65_535),
    'a.gif',
    'image/gif',
    'gif',
  ],
  ['a file of exactly 20 MiB', exactly(MAX_UPLOAD_BYTES), 'big.png', 'image/png', 'png'],
]

for (const [name, data, filename, type, ext] of accepted) {
  await t.test(`accepted: ${name}`, async (t) => {
    const before = await listMedia()
    const res = await upload(fileUpload(data, filename, type))
    t.equal(res.statusCode, 201, res.body.slice(0, 200))
    const { url, width, height } = res.json() as MediaReply
    t.match(url, MEDIA_PATH, 'a server-chosen name under /media/')
    t.ok(url.endsWith(`.${ext}`), `stored as .${ext}`)
    const after = await listMedia()
    t.strictSame(after, [...before, path.basename(url)].sort(), 'exactly one new file, no temporary left')
    const stored = await readImage(await storedFile(url))
    t.equal(stored.format, FORMATS[ext], 'a whole image of its type')
    t.strictSame([width, height], [stored.width, stored.height], 'answered with its stored size')
    if (data.length < 1024 * 1024) {
      const served = await api.app.inject({ method: 'GET', url })
      t.equal(served.statusCode, 200)
      t.match(served.headers['content-type'], /^image\//, 'served with its image type')
    }
  })
}

const polyglot = (head: Buffer, tail: string) => Buffer.concat([head, Buffer.from(tail)])
const notImage = [415, MSG.uploadNotImage] as const
const tooManyPixels = [415, MSG.imageTooManyPixels] as const
const tooLarge = [413, MSG.uploadTooLarge] as const
const badUpload = (status: number) => [status, MSG.badUpload] as const
const extraPart = [400, MSG.uploadExtraPart] as const

const refused: Array<[string, { payload: Buffer; headers: Record<string, string> }, readonly [number, string]]> = [
  ['SVG named photo.png', fileUpload(svg, 'photo.png', 'image/png'), notImage],
  ['SVG sent as image/svg+xml', fileUpload(svg, 'logo.svg', 'image/svg+xml'), notImage],
  ['HTML named photo.jpg (a lying extension)', fileUpload(html, 'photo.jpg', 'image/jpeg'), notImage],
  ['plain text', fileUpload('hello', 'a.txt', 'text/plain'), notImage],
  ['a PDF', fileUpload('%PDF-1.4\n1 0 obj<<>>endobj\n', 'a.pdf', 'application/pdf'), notImage],
  ['an empty file', fileUpload(Buffer.alloc(0)), notImage],
  ['a PNG signature alone', fileUpload(PNG.subarray(0, 8)), notImage],
  [
    'a PNG whose first chunk is not IHDR',
    fileUpload(Buffer.concat([PNG.subarray(0, 12), Buffer.from('tEXt'), PNG.subarray(16)])),
    notImage,
  ],
  ['a JPEG start with nothing after it', fileUpload(JPEG.subarray(0, 20), 'a.jpg', 'image/jpeg'), notImage],
  [
    'a JPEG whose scan comes before any frame header',
    fileUpload(Buffer.concat([JPEG.subarray(0, 2), Buffer.from([0xff, 0xda, 0, 2])]), 'a.jpg', 'image/jpeg'),
    notImage,
  ],
  [
    'a RIFF that is a WAV, not a WebP',
    fileUpload(Buffer.concat([Buffer.from('RIFF\x24\0\0\0WAVEfmt '), Buffer.alloc(40)]), 'a.webp', 'image/webp'),
    notImage,
  ],
  ['a JPEG cut off in its pixels', fileUpload(JPEG.subarray(0, JPEG.length - 24), 'a.jpg', 'image/jpeg'), notImage],
  ['a PNG whose header promises more pixels than it holds', fileUpload(pngSized(40, 30)), notImage],
  ['a PNG of 20000 × 5 pixels (a side too long)', fileUpload(pngSized(20_000, 5)), tooManyPixels],
  ['a PNG of 8000 × 8000 pixels (64 megapixels)', fileUpload(pngSized(8000, 8000)), tooManyPixels],
  [
    'a PNG claiming 4294967295 × 4294967295 pixels, more than PNG allows',
    fileUpload(pngSized(0xffffffff, 0xffffffff)),
    notImage,
  ],
  ['a PNG of zero width', fileUpload(pngSized(0, 10)), notImage],
  [
    'a GIF whose 1 × 1 screen holds a 20000 × 20000 frame',
    fileUpload(gifWithFrames([1, 1], [20_000, 20_000]), 'a.gif', 'image/gif'),
    tooManyPixels,
  ],
  [
    'a GIF whose 1 × 1 screen holds a 20000 × 5 frame (a side too long)',
    fileUpload(gifWithFrames([1, 1], [20_000, 5]), 'a.gif', 'image/gif'),
    tooManyPixels,
  ],
  [
    'a GIF of two 6000 × 5000 frames (60 megapixels to decode)',
    fileUpload(gifWithFrames([6000, 5000], [6000, 5000], 2), 'a.gif', 'image/gif'),
    tooManyPixels,
  ],
  ['a JPEG of 30000 × 30000 pixels', fileUpload(jpegSized(30_000, 30_000), 'a.jpg', 'image/jpeg'), tooManyPixels],
  [
    'a JPEG of 65500 × 1000 pixels behind 1 MB of metadata',
    fileUpload(jpegSizedAfterMetadata(), 'a.jpg', 'image/jpeg'),
    tooManyPixels,
  ],
  [
    'a lossless WebP of 16383 × 16383 pixels',
    fileUpload(webpLossless(16_383, 16_383), 'a.webp', 'image/webp'),
    tooManyPixels,
  ],
  [
    'an extended WebP of 16777216 × 1 pixels, more than WebP allows',
    fileUpload(webpExtended(16_777_216, 1), 'a.webp', 'image/webp'),
    notImage,
  ],
  ['a file of 20 MiB and one byte', fileUpload(exactly(MAX_UPLOAD_BYTES + 1)), tooLarge],
  ['a file of 21 MiB', fileUpload(exactly(21 * 1024 * 1024)), tooLarge],
  [
    'a file in another field',
    multipart([{ name: 'avatar', filename: 'a.png', type: 'image/png', data: PNG }]),
    [400, MSG.noFile],
  ],
  ['a text field only', multipart([{ name: 'file', data: 'not a file' }]), extraPart],
  [
    'a second file after the image',
    multipart([
      { name: 'file', filename: 'a.png', data: PNG },
      { name: 'file', filename: 'b.gif', data: GIF },
    ]),
    extraPart,
  ],
  [
    'a second file in another field',
    multipart([
      { name: 'file', filename: 'a.png', data: PNG },
      { name: 'avatar', filename: 'b.png', data: PNG },
    ]),
    extraPart,
  ],
  [
    'a text field after the image',
    multipart([
      { name: 'file', filename: 'a.png', data: PNG },
      { name: 'caption', data: 'hello' },
    ]),
    extraPart,
  ],
  [
    'a text field before the image',
    multipart([
      { name: 'caption', data: 'hello' },
      { name: 'file', filename: 'a.png', data: PNG },
    ]),
    extraPart,
  ],
  ['no parts at all', multipart([]), [400, MSG.noFile]],
  [
    'JSON instead of multipart',
    { payload: Buffer.from('{"file":"x"}'), headers: { 'content-type': 'application/json' } },
    badUpload(406),
  ],
  [
    'multipart without a boundary',
    { payload: Buffer.from('--x\r\n\r\n'), headers: { 'content-type': 'multipart/form-data' } },
    badUpload(400),
  ],
  [
    'multipart cut off before its closing boundary',
    { payload: fileUpload(PNG).payload.subarray(0, 120), headers: fileUpload(PNG).headers },
    badUpload(400),
  ],
  [
    'multipart whose part has no headers',
    {
      payload: Buffer.from('--b\r\n\r\nxx\r\n--b--\r\n'),
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    },
    [400, MSG.noFile],
  ],
]

function jpegSizedAfterMetadata(): Buffer {
  const jpeg = jpegSized(65_500, 1000)
  return Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: 16 }, () => appHeader(65_000)), jpeg.subarray(2)])
}

for (const [name, body, [status, message]] of refused) {
  await t.test(`refused: ${name}`, async (t) => {
    const before = await listMedia()
    const res = await upload(body)
    t.equal(res.statusCode, status, res.body.slice(0, 200))
    t.strictSame(res.json(), { errors: [message], code: expectedCode(message) })
    t.strictSame(await listMedia(), before, 'nothing left in the media folder')
  })
}

await t.test('a GIF is stored with the screen of its frames, not the one its header claimed', async (t) => {
  const { url } = (await upload(fileUpload(gifSized(65_535, 65_535), 'a.gif', 'image/gif'))).json() as { url: string }
  const stored = await storedFile(url)
  t.strictSame([stored.readUInt16LE(6), stored.readUInt16LE(8)], [1, 1], 'a 1 × 1 logical screen')
})

/**
 * Markup hidden in or after an image (polyglots). A file that does not decode is refused; one that does is
 * stored as the encoder wrote its pixels, so nothing of what was hidden survives.
 */
const MARKUP = [
  '<script',
  '<html',
  '<!doctype',
  '<iframe',
  '<svg',
  '<animate',
  '<details',
  '<?php',
  'javascript:',
  'onload',
  'onbegin',
  'ontoggle',
]
const polyglots: Array<[string, Buffer, 'refused' | 'stored clean']> = [
  [
    'a GIF header followed by HTML (GIFAR-style)',
    polyglot(GIF.subarray(0, 13), '<html><script>alert(1)</script>'),
    'refused',
  ],
  [
    'the GIF89a/*<script> polyglot',
    polyglot(Buffer.from('GIF89a/*\x01\x00\x01\x00'), '*/=1;<script>alert(1)</script>'),
    'refused',
  ],
  [
    'a GIF followed by <svg><animate onbegin=…>',
    polyglot(GIF, '<svg><animate onbegin=alert(1) attributeName=x dur=1s>'),
    'stored clean',
  ],
  ['a GIF followed by <details ontoggle=…>', polyglot(GIF, '<details open ontoggle=alert(1)>'), 'stored clean'],
  ['a GIF with a javascript: URL in its trailer', polyglot(GIF, 'javascript:alert(1)'), 'stored clean'],
  [
    'a GIF with a script in a comment extension',
    Buffer.concat([GIF.subarray(0, -1), Buffer.from('\x21\xfe\x1e<script>alert(1)</script>12345\0\x3b', 'latin1')]),
    'stored clean',
  ],
  ['a JPEG with HTML after its end marker', polyglot(JPEG, '<!DOCTYPE html><p>hi'), 'stored clean'],
  [
    'a JPEG with a script in a comment segment',
    jpegWith(jpegSegment(0xfe, '<SCRIPT src=//evil.example></SCRIPT>')),
    'stored clean',
  ],
  [
    'a PNG with an iframe in a tEXt chunk',
    pngWithChunk('tEXt', 'Comment\0<iframe src="https://evil.example">'),
    'stored clean',
  ],
  ['a PNG with an SVG onload handler in a chunk', pngWithChunk('tEXt', 'c\0<svg onload = alert(1)>'), 'stored clean'],
  ['a WebP with PHP after the image', polyglot(WEBP_LOSSY, '<?php system($_GET[0]); ?>'), 'stored clean'],
]

for (const [name, data, outcome] of polyglots) {
  await t.test(`polyglot ${outcome}: ${name}`, async (t) => {
    const before = await listMedia()
    const res = await upload(fileUpload(data, 'a.img', 'image/png'))
    if (outcome === 'refused') {
      t.strictSame([res.statusCode, res.json()], [415, { errors: [MSG.uploadNotImage], code: 'upload_not_image' }])
      t.strictSame(await listMedia(), before, 'nothing left in the media folder')
      return
    }
    t.equal(res.statusCode, 201, res.body.slice(0, 200))
    const stored = (await storedFile((res.json() as { url: string }).url)).toString('latin1').toLowerCase()
    t.strictSame(
      MARKUP.filter((marker) => stored.includes(marker)),
      [],
      'no markup in the stored file',
    )
  })
}

await t.test('refused: an anonymous upload never reaches the disk', async (t) => {
  const before = await listMedia()
  const res = await upload(fileUpload(PNG), null)
  t.equal(res.statusCode, 401)
  t.strictSame(await listMedia(), before)
})

await t.test('uploads are served with their sniffed type, nosniff and a sandboxing policy', async (t) => {
  const res = await upload(fileUpload(GIF, 'x.png', 'image/png'))
  const { url } = res.json() as { url: string }
  const served = await api.app.inject({ method: 'GET', url })
  t.equal(served.headers['content-type'], 'image/gif')
  t.equal(served.headers['x-content-type-options'], 'nosniff')
  t.equal(served.headers['content-security-policy'], "default-src 'none'; sandbox")
})
