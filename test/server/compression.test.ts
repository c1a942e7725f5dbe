import { mkdir, readFile, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import t from 'tap'
import { compressClient } from '../../scripts/client-build/compress.js'
import { buildSeededApp } from '../helpers/seeded.js'
import { openSse } from '../helpers/sse.js'

/**
 * What goes out compressed: the built client as its build-time copies, API replies past 1 KB for clients
 * that ask; and what never does: uploads (already compressed images) and the event stream.
 */
const seeded = await buildSeededApp(t, { config: { rateLimit: false } })
const clientDir = path.join(seeded.dataDir, 'client')
await mkdir(path.join(clientDir, 'assets'), { recursive: true })
const script = `export const words = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `word${i}`))};\n`
const html = `<!doctype html><html><head><meta name="description" content="${'Chirp '.repeat(200)}"><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>`
await writeFile(path.join(clientDir, 'assets', 'app-abc123.js'), script)
await writeFile(path.join(clientDir, 'index.html'), html)
await compressClient(clientDir)
const api = await buildSeededApp(t, { config: { rateLimit: false, clientDir } })

const varies = (value: unknown) =>
  String(value)
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding')

await t.test("the client's script goes out as its build-time brotli copy when the browser accepts br", async (t) => {
  const res = await api.app.inject({
    method: 'GET',
    url: '/assets/app-abc123.js',
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-encoding'], 'br')
  t.ok(varies(res.headers.vary), 'vary: accept-encoding')
  t.match(res.headers['content-type'], /^(text|application)\/javascript/)
  t.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', 'hashed assets stay immutable')
  t.ok(res.headers['content-security-policy'], 'the security headers are still there')
  t.same(res.rawPayload, await readFile(path.join(clientDir, 'assets', 'app-abc123.js.br')), 'the .br bytes')
  t.equal(brotliDecompressSync(res.rawPayload).toString(), script)
})

await t.test('gzip gets the .gz copy, and a client that accepts neither gets the file itself', async (t) => {
  const gz = await api.app.inject({
    method: 'GET',
    url: '/assets/app-abc123.js',
    headers: { 'accept-encoding': 'gzip' },
  })
  t.equal(gz.headers['content-encoding'], 'gzip')
  t.same(gz.rawPayload, await readFile(path.join(clientDir, 'assets', 'app-abc123.js.gz')))
  const plain = await api.app.inject({ method: 'GET', url: '/assets/app-abc123.js' })
  t.equal(plain.headers['content-encoding'], undefined)
  t.ok(varies(plain.headers.vary), 'the plain answer varies too, so a cache never hands it to a browser that takes br')
  t.equal(plain.body, script)
})

await t.test('index.html is sent compressed at / and as the fallback of every app route', async (t) => {
  for (const url of ['/', '/explore']) {
    const res = await api.app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'br' } })
    t.equal(res.statusCode, 200, url)
    t.equal(res.headers['content-encoding'], 'br', url)
    t.equal(res.headers['cache-control'], 'no-cache', `${url}: revalidated, so a new build is picked up`)
    t.equal(brotliDecompressSync(res.rawPayload).toString(), html, url)
  }
})

await t.test('a shared page (index.html with its preview tags) is compressed as it is sent', async (t) => {
  const res = await api.app.inject({
    method: 'GET',
    url: '/profile/guest',
    headers: { accept: 'text/html', 'accept-encoding': 'br' },
  })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-encoding'], 'br')
  t.equal(res.headers['cache-control'], 'no-cache')
  t.match(
    brotliDecompressSync(res.rawPayload).toString(),
    /<meta property="og:title" content="[^"]+\(@guest\) on Chirp" \/>/,
  )
})

await t.test('the compressed copies have no URL of their own', async (t) => {
  const res = await api.app.inject({ method: 'GET', url: '/assets/app-abc123.js.br' })
  t.equal(res.statusCode, 404)
})

await t.test('a JSON reply past 1 KB is compressed for a client that asks, and only then', async (t) => {
  const plain = await api.app.inject({ method: 'GET', url: '/api/posts' })
  t.equal(plain.headers['content-encoding'], undefined, 'no accept-encoding, no compression')
  t.ok(plain.rawPayload.length > 1024, 'the seeded post list is past the threshold')
  const gzip = await api.app.inject({ method: 'GET', url: '/api/posts', headers: { 'accept-encoding': 'gzip' } })
  t.equal(gzip.statusCode, 200)
  t.equal(gzip.headers['content-encoding'], 'gzip')
  t.ok(varies(gzip.headers.vary), 'vary: accept-encoding')
  t.ok(gzip.rawPayload.length < plain.rawPayload.length / 2, 'smaller by far')
  t.same(JSON.parse(gunzipSync(gzip.rawPayload).toString()), plain.json(), 'the same reply once inflated')
  const br = await api.app.inject({ method: 'GET', url: '/api/posts', headers: { 'accept-encoding': 'br' } })
  t.equal(br.headers['content-encoding'], 'br')
  t.same(JSON.parse(brotliDecompressSync(br.rawPayload).toString()), plain.json())
})

await t.test('a small reply goes out as it is', async (t) => {
  const res = await api.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-encoding'], undefined)
  t.equal(res.json<{ status: string }>().status, 'ok')
})

await t.test('a gzip request body is not inflated: the API reads JSON bodies as they are sent', async (t) => {
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    payload: JSON.stringify({ username: 'guest', password: 'guestpassword' }),
  })
  t.equal(res.statusCode, 200, 'the body is read as plain JSON')
})

await t.test('uploads are never compressed again', async (t) => {
  const posts = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json<{
    posts: Array<{ mediaUrl: string }>
  }>()
  const url = posts.posts.find((post) => post.mediaUrl.startsWith('/media/'))?.mediaUrl
  if (!url) throw new Error('the seed has a post with an uploaded image')
  const res = await api.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-encoding'], undefined)
  t.same(res.rawPayload, await readFile(path.join(api.dataDir, 'media', path.basename(url))), 'the stored bytes')
})

await t.test('the event stream is never compressed, and each event arrives while the stream stays open', async (t) => {
  await api.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (api.app.server.address() as AddressInfo).port
  const token = await api.login('guest')
  const { ticket } = (await api.as(token, { method: 'POST', url: '/api/events/ticket' })).json<{ ticket: string }>()
  const stream = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`, {
    'accept-encoding': 'gzip, deflate, br',
  })
  t.teardown(() => stream.close())
  t.equal(stream.status, 200)
  t.match(stream.headers['content-type'], /^text\/event-stream/)
  t.equal(stream.headers['content-encoding'], undefined)
  for (const content of ['first live post', 'second live post']) {
    const write = await api.as(token, {
      method: 'POST',
      url: '/api/posts',
      headers: { prefer: 'return=minimal' },
      payload: { content },
    })
    t.equal(write.statusCode, 201)
    const event = await stream.until((message) => message.event === 'post.created', 3000)
    t.equal(
      (JSON.parse(event.data ?? '{}') as { post: { content: string } }).post.content,
      content,
      `${content}: read as plain text`,
    )
  }
})
