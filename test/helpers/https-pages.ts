import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { generate } from 'selfsigned'
import type { TestContext } from './app.js'

/**
 * A local https server for the link-card tests, with a certificate authority made for the test run: its
 * certificate is for `localhost` and 127.0.0.1, signed by that authority, which the fetcher is told to
 * trust (`ca`), as a deployment's tests would through NODE_EXTRA_CA_CERTS.
 */
export interface PageServer {
  /** The authority's certificate, PEM. */
  ca: string
  port: number
  /** `https://localhost:<port><path>`. */
  url: (path: string) => string
  /** The paths asked for, in order. */
  requested: string[]
}

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void

let authority: Promise<{ ca: string; key: string; cert: string }> | undefined

type AltName = { type: 2; value: string } | { type: 7; ip: string }

/** A certificate authority made for a test run, and a server certificate it signed for `altNames`. */
export async function issueCertificate(altNames: AltName[]) {
  const ca = await generate([{ name: 'commonName', value: 'Chirp test authority' }], {
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  })
  const first = altNames[0]
  const server = await generate([{ name: 'commonName', value: first?.type === 2 ? first.value : (first?.ip ?? '') }], {
    keySize: 2048,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  })
  return { ca: ca.cert, key: server.private, cert: server.cert }
}

/** One authority and one server certificate for the whole file: RSA keys take a moment to make. */
function certificates() {
  authority ??= issueCertificate([
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
  ])
  return authority
}

/** An https server on 127.0.0.1 with `handler`, until the test ends; its port. */
export async function serveHttps(
  t: TestContext,
  credentials: { key: string; cert: string },
  handler: RequestListener,
): Promise<number> {
  const server = createServer(credentials, handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return (server.address() as AddressInfo).port
}

/** Serves `routes` by path (404 elsewhere) on 127.0.0.1 until the test ends. */
export async function servePages(t: TestContext, routes: Record<string, PageHandler>): Promise<PageServer> {
  const { ca, key, cert } = await certificates()
  const requested: string[] = []
  const port = await serveHttps(t, { key, cert }, (req, res) => {
    const path = req.url ?? '/'
    requested.push(path)
    const route = routes[path.split('?')[0] ?? path]
    if (route) route(req, res)
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not here')
  })
  return { ca, port, url: (path) => `https://localhost:${port}${path}`, requested }
}

/** An HTML page. */
export const html =
  (body: string, type = 'text/html; charset=utf-8'): PageHandler =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': type }).end(body)

/** A redirect to `location`. */
export const redirect =
  (location: string, status = 302): PageHandler =>
  (_req, res) =>
    res.writeHead(status, { location }).end()

/** A page with Open Graph tags. */
export const ogPage = ({ title, description, image }: { title: string; description: string; image?: string }) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Not this one</title>
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
${image !== undefined ? `<meta property="og:image" content="${image}">` : ''}
</head><body><p>Hello</p></body></html>`
