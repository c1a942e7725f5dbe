import http from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { journey, startE2E } from './harness.js'
import { GUEST, uniqueUsername, waitForPath } from './helpers.js'

/**
 * A page of another origin, as any site a visitor opens could be, sends Chirp what a browser lets any
 * page send anywhere without asking: text/plain bodies, with fetch's `no-cors`. Rate limits are on, as
 * in production, so the wrong passwords would spend the visitor's address's login budget if they counted.
 */
const e2e = await startE2E(t, { env: { RATE_LIMIT: 'true' } })

/** More failed logins than one address may make (30 per 15 minutes), all for the guest account. */
const WRONG_LOGINS = 35

function attackerPage(chirp: string, username: string): string {
  const signup = {
    username,
    password: 'pw-1234-secret',
    email: `${username}@example.com`,
    firstName: 'Eve',
    lastName: 'X',
  }
  return `<!doctype html><title>An ordinary page</title><script>
    const send = (path, body) =>
      fetch(${JSON.stringify(chirp)} + path, { method: 'POST', mode: 'no-cors', body: JSON.stringify(body) })
    const logins = Array.from({ length: ${WRONG_LOGINS} }, (_, i) =>
      send('/api/auth/login', { username: ${JSON.stringify(GUEST.username)}, password: 'guess-' + i }))
    Promise.allSettled([send('/api/auth/signup', ${JSON.stringify(signup)}), ...logins])
      .then(() => { document.title = 'sent' })
  </script>`
}

/** The other origin: a second tiny server on 127.0.0.1, on a port of its own. */
async function serveAttacker(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

await journey(
  t,
  e2e,
  "another site's page can neither sign up nor spend a visitor's login budget",
  {},
  async (page, t, e2e) => {
    const username = uniqueUsername('csrf')
    const attacker = await serveAttacker(attackerPage(e2e.baseURL, username))
    t.teardown(attacker.close)
    t.not(new URL(attacker.url).origin, e2e.baseURL, 'the page is of another origin')

    await page.goto(attacker.url)
    await page.waitForFunction(() => document.title === 'sent')
    const profile = await fetch(`${e2e.baseURL}/api/users/${username}`)
    t.equal(profile.status, 404, 'the account was not created')

    await page.goto(`${e2e.baseURL}/login`)
    await page.getByRole('button', { name: 'Login as a Guest' }).click()
    await waitForPath(page, '/')
    await page.getByRole('heading', { name: 'Latest Posts' }).waitFor()
    t.pass("the visitor's Login as a Guest still works")
  },
)
