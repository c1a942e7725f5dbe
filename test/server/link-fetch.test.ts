import t, { type Test } from 'tap'
import { summarisePage } from '../../server/services/link-card-parse.js'
import {
  createLinkFetcher,
  LinkFetchError,
  type LinkFetchOptions,
  type Refusal,
} from '../../server/services/link-fetch.js'
import { html, ogPage, redirect, servePages } from '../helpers/https-pages.js'

/**
 * The link-card fetcher's refusals, each against a local https server whose certificate a test authority
 * signed. Names resolve through an injected resolver, so nothing here depends on this machine's DNS.
 */

const HTML_ONLY = { accept: (type: string) => type === 'text/html', maxBytes: 1024 * 1024 }
const LOOPBACK = async () => [{ address: '127.0.0.1', family: 4 }]

let slowTimer: NodeJS.Timeout | undefined
const pages = await servePages(t, {
  '/page': html(ogPage({ title: 'A page', description: 'About it' })),
  '/json': html('{"title":"no"}', 'application/json'),
  '/huge': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    // Chunked, without a length: the fetcher must stop reading by itself.
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let sent = 0
    const more = () => {
      while (sent < 3 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length
        if (!res.write(chunk)) return void res.once('drain', more)
      }
      res.end()
    }
    more()
  },
  '/slow': (_req, res) => {
    slowTimer = setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>late</title>'), 2000)
  },
  '/stalls': (_req, res) => {
    // The head, then nothing more: the deadline covers the body too.
    res.writeHead(200, { 'content-type': 'text/html' })
    res.write('<html><head><title>Never ends')
  },
  '/to-private': redirect('https://127.0.0.1/admin'),
  '/to-internal-name': redirect('https://internal.example/admin'),
  '/to-http': redirect('http://example.com/'),
  '/hop1': redirect('/hop2'),
  '/hop2': redirect('/hop3'),
  '/hop3': redirect('/page'),
  '/hop0': redirect('/hop1'),
})
t.teardown(() => clearTimeout(slowTimer))

const ALLOW = [`localhost:${pages.port}`]
const fetcher = (options: LinkFetchOptions = {}) =>
  createLinkFetcher({ allow: ALLOW, resolve: LOOPBACK, ca: pages.ca, ...options })

async function refused(t: Test, fetching: Promise<unknown>, reason: Refusal, what: string) {
  const error = await fetching.then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(error instanceof LinkFetchError, `${what}: refused`)
  t.equal((error as LinkFetchError).reason, reason, `${what}: ${reason}`)
}

await t.test('an allowed https page is read', async (t) => {
  const page = await fetcher().fetch(pages.url('/page'), HTML_ONLY)
  t.equal(page.type, 'text/html')
  t.equal(page.charset, 'utf-8')
  t.match(summarisePage(page.body.toString(), page.url), { title: 'A page', description: 'About it' })
})

await t.test('the connection goes to the address the lookup checked, resolved once', async (t) => {
  const asked: string[] = []
  const resolve = async (name: string) => {
    asked.push(name)
    // A second answer would be a rebinding: were it asked for again, the connection would fail.
    return asked.length === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }]
  }
  await fetcher({ resolve }).fetch(pages.url('/page'), HTML_ONLY)
  t.strictSame(asked, ['localhost'], 'one resolution for one connection')
})

await t.test('only https', async (t) => {
  await refused(t, fetcher().fetch('http://example.com/', HTML_ONLY), 'not-https', 'an http link')
  await refused(t, fetcher().fetch('ftp://example.com/', HTML_ONLY), 'not-https', 'an ftp link')
  await refused(t, fetcher().fetch(pages.url('/to-http'), HTML_ONLY), 'not-https', 'a redirect to http')
})

await t.test('addresses written in the link are checked without the allow list', async (t) => {
  const strict = createLinkFetcher({ resolve: LOOPBACK, ca: pages.ca })
  for (const link of [
    'https://127.0.0.1/',
    `https://127.0.0.1:${pages.port}/page`,
    'https://10.0.0.1/',
    'https://192.168.0.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://0.0.0.0/',
    'https://2130706433/',
  ])
    await refused(t, strict.fetch(link, HTML_ONLY), 'private-address', link)
})

await t.test('a name that resolves to a private address is refused (rebinding)', async (t) => {
  const strict = (address: string) =>
    createLinkFetcher({ resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }], ca: pages.ca })
  await refused(t, strict('127.0.0.1').fetch('https://evil.example/', HTML_ONLY), 'private-address', 'to loopback')
  await refused(t, strict('10.1.2.3').fetch('https://evil.example/', HTML_ONLY), 'private-address', 'to 10/8')
  await refused(t, strict('169.254.169.254').fetch('https://evil.example/', HTML_ONLY), 'private-address', 'metadata')
  await refused(t, strict('::ffff:10.0.0.1').fetch('https://evil.example/', HTML_ONLY), 'private-address', 'mapped')
  const mixed = createLinkFetcher({
    resolve: async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
  })
  await refused(t, mixed.fetch('https://evil.example/', HTML_ONLY), 'private-address', 'one private among public')
  const nothing = createLinkFetcher({ resolve: async () => [] })
  await refused(t, nothing.fetch('https://nowhere.example/', HTML_ONLY), 'unresolved', 'a name without addresses')
})

await t.test('the allow list matches a name and its port, never the address', async (t) => {
  const otherPort = createLinkFetcher({ allow: ['localhost:1'], resolve: LOOPBACK, ca: pages.ca })
  await refused(t, otherPort.fetch(pages.url('/page'), HTML_ONLY), 'bad-url', 'another port of the name')
  const byName = createLinkFetcher({ allow: ['localhost'], resolve: LOOPBACK, ca: pages.ca })
  t.equal((await byName.fetch(pages.url('/page'), HTML_ONLY)).type, 'text/html', 'a name without a port: any port')
  const link = `https://127.0.0.1:${pages.port}/page`
  await refused(t, byName.fetch(link, HTML_ONLY), 'private-address', 'the address the allowed name resolves to')
})

await t.test('every redirect is checked again', async (t) => {
  await refused(t, fetcher().fetch(pages.url('/to-private'), HTML_ONLY), 'private-address', 'to a private address')
  const internal = fetcher({
    resolve: async (name) => [{ address: name === 'localhost' ? '127.0.0.1' : '10.0.0.7', family: 4 }],
  })
  await refused(t, internal.fetch(pages.url('/to-internal-name'), HTML_ONLY), 'private-address', 'to an internal name')
})

await t.test('at most 3 redirects', async (t) => {
  const three = await fetcher().fetch(pages.url('/hop1'), HTML_ONLY)
  t.equal(three.url.pathname, '/page', '3 redirects are followed')
  await refused(t, fetcher().fetch(pages.url('/hop0'), HTML_ONLY), 'too-many-redirects', '4 redirects')
})

await t.test('a body over the cap is not read past it', async (t) => {
  await refused(t, fetcher().fetch(pages.url('/huge'), HTML_ONLY), 'too-large', 'a 3 MB page')
})

await t.test('a page slower than the deadline is given up', async (t) => {
  await refused(t, fetcher({ timeoutMs: 200 }).fetch(pages.url('/slow'), HTML_ONLY), 'timeout', 'a slow page')
  await refused(t, fetcher({ timeoutMs: 200 }).fetch(pages.url('/stalls'), HTML_ONLY), 'timeout', 'a body that stalls')
})

await t.test('only the types asked for are read', async (t) => {
  await refused(t, fetcher().fetch(pages.url('/json'), HTML_ONLY), 'wrong-type', 'JSON')
  await refused(t, fetcher().fetch(pages.url('/missing'), HTML_ONLY), 'status', 'a 404')
})

await t.test('an untrusted certificate is refused', async (t) => {
  const untrusting = createLinkFetcher({ allow: ALLOW, resolve: LOOPBACK })
  await refused(t, untrusting.fetch(pages.url('/page'), HTML_ONLY), 'network', 'a certificate of an unknown authority')
})

await t.test('the page summary: Open Graph, then title and description, entities decoded', async (t) => {
  const base = new URL('https://example.com/a/b')
  t.strictSame(summarisePage(ogPage({ title: 'Caf&eacute; &amp; more', description: 'x', image: '/i.png' }), base), {
    title: 'Café & more',
    description: 'x',
    imageUrl: 'https://example.com/i.png',
  })
  t.strictSame(
    summarisePage(
      `<html><head><title> Plain
       title </title><meta name="description" content="Said here"><meta property="og:image" content="http://x.example/i.png"></head></html>`,
      base,
    ),
    { title: 'Plain title', description: 'Said here', imageUrl: '' },
    'an http image is left out',
  )
  t.strictSame(
    summarisePage(
      '<html><head></head><body><meta property="og:title" content="late"><title>t</title></body></html>',
      base,
    ),
    { title: '', description: '', imageUrl: '' },
    'tags in the body do not count',
  )
  t.equal(summarisePage(`<title>${'x'.repeat(500)}</title>`, base).title.length, 200, 'a long title is cut')
})
