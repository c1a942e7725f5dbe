import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { buildSeededApp } from '../helpers/seeded.js'

const api = await buildSeededApp(t, { config: { rateLimit: false } })

/** The policy as a map of directive to sources. */
function parseCsp(header: string | string[] | number | undefined): Record<string, string[]> {
  const policy: Record<string, string[]> = {}
  for (const part of String(header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) policy[name] = sources
  }
  return policy
}

await t.test('every answer carries a strict policy, nosniff, no framing and no referrer', async (t) => {
  for (const url of ['/api/health', '/api/posts', '/api/nope', '/api/docs']) {
    const res = await api.app.inject({ method: 'GET', url })
    const csp = parseCsp(res.headers['content-security-policy'])
    t.strictSame(csp['script-src'], ["'self'"], `${url}: scripts only from this origin, never inline`)
    t.strictSame(csp['script-src-attr'], ["'none'"], `${url}: no inline event handlers`)
    t.equal(csp['style-src']?.[0], "'self'", `${url}: styles from this origin`)
    t.notOk(csp['style-src']?.includes("'unsafe-inline'"), `${url}: no unsafe-inline styles`)
    t.strictSame(csp['img-src'], ["'self'", 'data:', 'https:', 'blob:'], `${url}: images`)
    t.strictSame(csp['connect-src'], ["'self'"], `${url}: calls only to this origin`)
    t.strictSame(csp['frame-ancestors'], ["'none'"], `${url}: never framed`)
    t.strictSame(csp['object-src'], ["'none'"], `${url}: no plugins`)
    t.strictSame(csp['base-uri'], ["'self'"], `${url}: base-uri`)
    t.strictSame(csp['form-action'], ["'self'"], `${url}: form-action`)
    t.notOk('upgrade-insecure-requests' in csp, `${url}: plain-http LAN use keeps working`)
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url}: nosniff`)
    t.equal(res.headers['referrer-policy'], 'no-referrer', `${url}: referrer policy`)
    t.equal(res.headers['x-frame-options'], 'SAMEORIGIN', `${url}: legacy framing header`)
    t.notOk(res.headers['x-powered-by'], `${url}: no x-powered-by`)
  }
})

await t.test('errors from the rate limiter and the router carry the headers too', async (t) => {
  const limited = await buildSeededApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: { general: { max: 1, windowMs: 60_000 } } },
  })
  await limited.app.inject({ method: 'GET', url: '/api/health' })
  const res = await limited.app.inject({ method: 'GET', url: '/api/health' })
  t.equal(res.statusCode, 429)
  t.ok(res.headers['content-security-policy'])
  t.equal(res.headers['x-content-type-options'], 'nosniff')
})

await t.test("/media/ keeps its own sandboxing policy, which Helmet's never replaces", async (t) => {
  const posts = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as {
    posts: Array<{ mediaUrl: string }>
  }
  const url = posts.posts.find((post) => post.mediaUrl.startsWith('/media/'))?.mediaUrl
  if (!url) throw new Error('the seed has a post with an uploaded image')
  const res = await api.app.inject({ method: 'GET', url })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'image/png')
  t.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox")
  t.equal(res.headers['x-content-type-options'], 'nosniff')
  t.equal(res.headers['cross-origin-resource-policy'], 'cross-origin', 'other sites may show it (DECISIONS §14)')
})

await t.test('the Swagger UI page loads only files, and its policy differs only by one style hash', async (t) => {
  const res = await api.app.inject({ method: 'GET', url: '/api/docs' })
  t.equal(res.statusCode, 200)
  t.notMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/i, 'no inline script')
  t.notMatch(res.body, /\son[a-z]+\s*=/i, 'no inline event handler')
  const csp = parseCsp(res.headers['content-security-policy'])
  t.match(csp['style-src'], ["'self'", /^'sha256-[A-Za-z0-9+/=]+'$/])
  for (const asset of ['swagger-ui-bundle.js', 'swagger-initializer.js', 'swagger-ui.css']) {
    t.equal((await api.app.inject({ method: 'GET', url: `/api/docs/static/${asset}` })).statusCode, 200, asset)
  }
})

await t.test('the client page gets the policy, and its HTML needs no inline script', async (t) => {
  const clientDir = path.join(api.dataDir, 'client')
  await mkdir(clientDir, { recursive: true })
  const html =
    '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>'
  await writeFile(path.join(clientDir, 'index.html'), html)
  await mkdir(path.join(clientDir, 'avatars'))
  await writeFile(path.join(clientDir, 'avatars', 'avatar-1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  const app = await buildSeededApp(t, { config: { rateLimit: false, clientDir } })
  for (const url of ['/', '/login', '/profile/guest']) {
    const res = await app.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })
    t.equal(res.statusCode, 200, url)
    t.strictSame(parseCsp(res.headers['content-security-policy'])['script-src'], ["'self'"], url)
    t.equal(res.headers['x-content-type-options'], 'nosniff', url)
    t.equal(res.headers['cross-origin-resource-policy'], 'same-origin', `${url}: only this site's pages load it`)
  }
  // A preset avatar is a person's picture wherever their profile shows, on other servers' pages too.
  const avatar = await app.app.inject({ method: 'GET', url: '/avatars/avatar-1.svg' })
  t.equal(avatar.statusCode, 200)
  t.equal(avatar.headers['cross-origin-resource-policy'], 'cross-origin', 'a preset avatar may be shown elsewhere')
  const script = await app.app.inject({ method: 'GET', url: '/index.html' })
  t.equal(script.headers['cross-origin-resource-policy'], 'same-origin', 'the rest of the client stays this site’s')
})
