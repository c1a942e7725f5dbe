import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import type { Test } from 'tap'
import { issueCertificate } from '../helpers/https-pages.js'
import { ensureBuilt } from './build.js'
import { browserAvailable, closeBrowser, openBrowser, signedIn, STEP_TIMEOUT_MS, type Session } from './harness.js'
import { startServer, type RunningServer } from './server-process.js'

/**
 * Chirp instances federating on this machine for the browser (DECISIONS §14's proof): each is the built
 * server in a process of its own (NODE_EXTRA_CA_CERTS holds only from a process's start) with FEDERATION on,
 * behind an https server of this process on a loopback address of its own (127.0.0.2, 127.0.0.3, …) that
 * passes every request through with its Host, as a TLS-ending proxy would. One certificate authority made
 * for the run signs the certificate of every address; the servers trust it, and the browser is told to
 * accept what it signed.
 */

const HOSTS = ['127.0.0.2', '127.0.0.3', '127.0.0.4']

export interface Instance {
  /** Its PUBLIC_URL, `https://127.0.0.x:port`, where the browser opens it. */
  origin: string
  /** The host part of its people's handles elsewhere: `127.0.0.x:port`. */
  host: string
  /** Where the test itself calls its API, without going through TLS. */
  baseURL: string
  server: RunningServer
}

export interface Federated {
  instances: Instance[]
  browser: Browser
  /** A fresh browser context on `instance`, signed in when a session is given. */
  newContext(instance: Instance, session?: Session): Promise<BrowserContext>
}

/** Passes a request to `target` as it came (its Host kept), streaming both ways, as a proxy would. */
function passTo(target: () => string | undefined) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const base = target()
    if (!base) return void res.writeHead(503).end()
    const upstream = httpRequest(
      new URL(req.url ?? '/', base),
      { method: req.method, headers: { ...req.headers, 'x-forwarded-proto': 'https' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    req.pipe(upstream)
  }
}

/** `count` federating instances and one Chromium; null when the file is skipped for want of a browser. */
export async function startFederated(
  t: Pick<Test, 'plan' | 'fail' | 'teardown' | 'setTimeout'>,
  count: number,
): Promise<Federated | null> {
  if (!browserAvailable(t)) return null
  t.setTimeout(5 * 60_000)
  await ensureBuilt()
  const hosts = HOSTS.slice(0, count)
  const { ca, key, cert } = await issueCertificate(hosts.map((ip) => ({ type: 7 as const, ip })))
  const caDir = await mkdtemp(path.join(tmpdir(), 'chirp-e2e-federation-'))
  const caFile = path.join(caDir, 'ca.pem')
  await writeFile(caFile, ca)
  const proxies: Server[] = []
  const servers: RunningServer[] = []
  const opened: { browser?: Browser } = {}
  t.teardown(async () => {
    // The browser first, so that no open connection of a page holds a server's shutdown up.
    if (opened.browser) await closeBrowser(opened.browser)
    for (const proxy of proxies) proxy.closeAllConnections()
    await Promise.all(proxies.map((proxy) => new Promise((resolve) => proxy.close(resolve))))
    await Promise.all(servers.map((server) => server.stop()))
    await rm(caDir, { recursive: true, force: true })
  })

  const instances: Instance[] = []
  for (const ip of hosts) {
    const target: { base?: string } = {}
    const proxy = createServer(
      { key, cert },
      passTo(() => target.base),
    )
    proxies.push(proxy)
    await new Promise<void>((resolve) => proxy.listen(0, ip, resolve))
    const origin = `https://${ip}:${(proxy.address() as AddressInfo).port}`
    const server = await startServer({
      env: {
        FEDERATION: 'true',
        FEDERATION_ALLOW_PRIVATE: 'true',
        PUBLIC_URL: origin,
        NODE_EXTRA_CA_CERTS: caFile,
        PASSWORD_HASH_COST: '4',
        JOBS_POLL_MS: '100',
        JOBS_RETRY_MS: '500',
      },
    })
    servers.push(server)
    target.base = server.baseURL
    instances.push({ origin, host: new URL(origin).host, baseURL: server.baseURL, server })
  }

  const browser = await openBrowser()
  opened.browser = browser
  return {
    instances,
    browser,
    async newContext(instance, session) {
      const context = await browser.newContext({
        baseURL: instance.origin,
        // The certificate is signed by the run's own authority, which Chromium is not told of.
        ignoreHTTPSErrors: true,
        viewport: { width: 1280, height: 900 },
        storageState: signedIn(instance.origin, session),
      })
      context.setDefaultTimeout(STEP_TIMEOUT_MS)
      return context
    },
  }
}
