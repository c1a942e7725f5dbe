import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { MAX_UPLOAD_BYTES } from '../../server/schemas/media.js'
import { PNG } from '../helpers/images.js'
import { buildSeededApp, listMedia } from '../helpers/seeded.js'

/**
 * What inject() cannot send: malformed HTTP that Node's parser refuses before Fastify sees it, and large
 * uploads over a real socket, refused while they are still arriving. All on 127.0.0.1.
 */
const api = await buildSeededApp(t, { config: { rateLimit: false } })
await api.app.listen({ host: '127.0.0.1', port: 0 })
const port = (api.app.server.address() as AddressInfo).port
const token = await api.login('guest')

/** Writes raw bytes and returns everything the server answers before it closes (or 3 s pass). */
function raw(request: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    const done = () => resolve(answer)
    socket.setTimeout(3000, () => socket.destroy())
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')))
    socket.on('close', done)
    socket.on('error', () => undefined)
    socket.write(request)
  })
}

const parse = (answer: string) => {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return { status: Number(head.split(' ')[1]), body }
}

const malformed: Array<[string, string | Buffer, number]> = [
  [
    'Content-Length and Transfer-Encoding together (smuggling)',
    'POST /api/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
  ],
  [
    'two different Content-Lengths',
    'POST /api/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcde',
    400,
  ],
  [
    'a bad chunk size',
    'POST /api/posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    400,
  ],
  ['a garbage request line', 'HELLO THERE\r\n\r\n', 400],
  ['a header with a bare newline in its value', 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-A: a\nb\r\n\r\n', 400],
  [
    'a NUL byte in a header',
    Buffer.from('GET /api/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n', 'latin1'),
    400,
  ],
  ['20 KiB of headers', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`, 431],
]

for (const [name, request, status] of malformed) {
  await t.test(`refused by the HTTP parser: ${name}`, async (t) => {
    const answer = parse(await raw(request))
    t.equal(answer.status, status)
    t.match(JSON.parse(answer.body), { errors: [String] }, 'still the { errors } shape')
  })
}

await t.test('the server still answers after all of that', async (t) => {
  t.equal(parse(await raw('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status, 200)
})

/** Streams `total` bytes of a multipart upload, `head` first, and resolves with the answer once it comes. */
function streamUpload(head: Buffer, total: number): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const boundary = 'chirpboundary'
    const preamble = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    )
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/media',
      agent: false,
      headers: {
        connection: 'close',
        authorization: token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    })
    let sent = 0
    let answered = false
    req.on('response', (res) => {
      answered = true
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }))
    })
    req.on('error', (error) => (answered ? undefined : reject(error)))
    const chunk = Buffer.alloc(256 * 1024)
    const pump = () => {
      while (!answered && sent < total) {
        const piece = sent === 0 ? Buffer.concat([preamble, head]) : chunk
        sent += piece.length
        if (!req.write(piece)) return void req.once('drain', pump)
      }
      if (!answered) req.end(`\r\n--${boundary}--\r\n`)
    }
    pump()
  })
}

await t.test('an upload over 20 MiB gets 413 over a real socket, and leaves nothing behind', async (t) => {
  const before = await listMedia(api)
  const res = await streamUpload(PNG, MAX_UPLOAD_BYTES + 4 * 1024 * 1024)
  t.equal(res.status, 413)
  t.match(JSON.parse(res.body), { errors: ['file must be less than 20mb'] })
  t.strictSame(await listMedia(api), before)
})

await t.test(
  'a file that is no image by its first bytes is refused as they arrive, long before the end of a large upload',
  async (t) => {
    const before = await listMedia(api)
    const res = await streamUpload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>'),
      18 * 1024 * 1024,
    )
    t.equal(res.status, 415)
    t.ok(res.sent < 18 * 1024 * 1024, `answered after ${(res.sent / 1024 / 1024).toFixed(1)} MiB of 18`)
    t.strictSame(await listMedia(api), before)
    t.equal((await api.app.inject({ method: 'GET', url: '/api/health' })).statusCode, 200)
  },
)

await t.test('a slow request cannot hold its socket for ever', async (t) => {
  t.equal(api.app.server.requestTimeout, 300_000)
  // Sockets cut off mid-upload are not waited for at close.
  api.app.server.closeAllConnections()
})
