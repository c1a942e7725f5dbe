import { CryptographicKey, Person, generateCryptoKeyPair, signRequest } from '@fedify/fedify'
import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getCACertificates, setDefaultCACertificates } from 'node:tls'
import type { TestContext, TestApp } from './app.js'
import { buildApiApp } from './api.js'
import { issueCertificate } from './https-pages.js'

/**
 * Chirp instances federating on this machine over https, as DECISIONS §14's proof asks: a certificate
 * authority made for the test run, trusted by every TLS client of this process (the link fetcher and
 * Fedify's deliveries alike) as NODE_EXTRA_CA_CERTS would have it; each instance on a loopback address of
 * its own (127.0.0.2, 127.0.0.3, …), which needs no name resolution, with FEDERATION_ALLOW_PRIVATE.
 */

const HOSTS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']

let certificates: Promise<{ key: string; cert: string }> | undefined

/** One authority and one certificate for every test address, trusted from then on by this process. */
function trustedCertificate() {
  certificates ??= (async () => {
    const { ca, key, cert } = await issueCertificate(HOSTS.map((ip) => ({ type: 7 as const, ip })))
    setDefaultCACertificates([...getCACertificates('default'), ca])
    return { key, cert }
  })()
  return certificates
}

/** An https server on the `index`th test address, closed when the test ends; `origin` says where. */
export async function serveHttps(
  t: TestContext,
  index: number,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ origin: string; server: Server }> {
  const host = HOSTS[index]
  if (!host) throw new Error(`no test address ${index}`)
  const { key, cert } = await trustedCertificate()
  const server = createServer({ key, cert }, handler)
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { origin: `https://${host}:${(server.address() as AddressInfo).port}`, server }
}

export interface Instance extends TestApp {
  /** Its PUBLIC_URL: `https://127.0.0.x:port`. */
  origin: string
  /** The host part of its people's handles: `127.0.0.x:port`. */
  host: string
}

/**
 * A Chirp instance with federation on at the `index`th test address: an https server in front of the app
 * hands it every request (as a TLS-ending proxy passing Host would), on whichever store the suite runs.
 */
export async function startInstance(t: TestContext, index: number): Promise<Instance> {
  const started: { app?: TestApp } = {}
  const { origin } = await serveHttps(t, index, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (!started.app) return res.writeHead(503).end()
      started.app.app
        .inject({
          method: req.method as 'GET',
          url: req.url ?? '/',
          headers: req.headers as Record<string, string>,
          payload: Buffer.concat(chunks),
        })
        .then((answer) => {
          res.writeHead(answer.statusCode, answer.headers as Record<string, string>)
          res.end(answer.rawPayload)
        })
        .catch(() => res.writeHead(500).end())
    })
  })
  const app = await buildApiApp(t, {
    config: {
      federation: true,
      federationAllowPrivate: true,
      publicUrl: origin,
      jobsPollMs: 50,
      jobsRetryMs: 200,
    },
  })
  started.app = app
  return { ...app, origin, host: new URL(origin).host }
}

/** Asks `read` until `done` holds of its answer, every 50 ms for at most `ms`; the last answer either way. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms
  let value = await read()
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await read()
  }
  return value
}

/** A person of `origin` with a key pair the test holds: their actor's id, key id, keys and document. */
export async function signingActor(origin: string, name: string) {
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5')
  const id = new URL(`${origin}/users/${name}`)
  const keyId = new URL(`${id.href}#main-key`)
  const actor = new Person({
    id,
    preferredUsername: name,
    inbox: new URL(`${id.href}/inbox`),
    publicKey: new CryptographicKey({ id: keyId, owner: id, publicKey: keys.publicKey }),
  })
  return { id, keyId, privateKey: keys.privateKey, publicKey: keys.publicKey, document: await actor.toJsonLd() }
}

/**
 * An actor of a server of its own on the `index`th test address, serving only its actor document, with a
 * key pair the test holds: what a hostile server signs its activities with.
 */
export async function serveActor(t: TestContext, index: number, name: string) {
  const documents = new Map<string, string>()
  const { origin } = await serveHttps(t, index, (req, res) => {
    const document = documents.get(req.url ?? '')
    if (document) res.writeHead(200, { 'content-type': 'application/activity+json' }).end(document)
    else res.writeHead(404).end()
  })
  const { document, ...actor } = await signingActor(origin, name)
  documents.set(actor.id.pathname, JSON.stringify(document))
  return actor
}

/** Posts `activity` to `instance`'s shared inbox, signed with `from`'s key: the inbox's answer status. */
export async function postSigned(
  instance: Pick<Instance, 'origin'>,
  from: { privateKey: CryptoKey; keyId: URL },
  activity: { toJsonLd(): Promise<unknown> },
): Promise<number> {
  const request = new Request(`${instance.origin}/ap/inbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json' },
    body: JSON.stringify(await activity.toJsonLd()),
  })
  return (await fetch(await signRequest(request, from.privateKey, from.keyId))).status
}
