import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { retryAfterSeconds } from '../../client/api/http.js'
import { App } from '../../client/app.js'
import { fail, ok, renderAt, resetAll, stubApi } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const TOO_MANY = 'Too many requests, please try again later.'

await t.test('Retry-After is read as whole seconds or as an HTTP date', async (t) => {
  const now = Date.parse('2026-01-10T12:00:00.000Z')
  t.equal(retryAfterSeconds('120', now), 120)
  t.equal(retryAfterSeconds(' 7 ', now), 7)
  t.equal(retryAfterSeconds('Sat, 10 Jan 2026 12:01:30 GMT', now), 90)
  t.equal(retryAfterSeconds('Sat, 10 Jan 2026 11:00:00 GMT', now), 0, 'a date gone by means now')
  t.equal(retryAfterSeconds(null, now), undefined)
  t.equal(retryAfterSeconds('soon', now), undefined)
})

async function tryLogin(reply: { status?: number; body?: unknown; headers?: Record<string, string> }) {
  const api = stubApi({
    'GET /api/health': () => ok({ status: 'ok', guestLogin: true }),
    'POST /api/auth/login': () => reply,
  })
  renderAt('/login', <App />)
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'guest' } })
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  return api
}

const cases: Array<[string, string]> = [
  ['100', 'Too many attempts. Try again in 2 minutes.'],
  ['60', 'Too many attempts. Try again in 1 minute.'],
  ['45', 'Too many attempts. Try again in 45 seconds.'],
  ['1', 'Too many attempts. Try again in 1 second.'],
]
for (const [header, message] of cases) {
  await t.test(`a 429 with Retry-After: ${header} tells how long to wait`, async (t) => {
    const api = await tryLogin({ ...fail(429, TOO_MANY), headers: { 'retry-after': header } })
    t.teardown(api.restore)
    t.ok(await screen.findByText(message))
    t.equal(screen.queryByText(TOO_MANY), null, 'instead of only "later"')
  })
}

await t.test('a 429 without Retry-After shows the server message, in plain words', async (t) => {
  const api = await tryLogin(fail(429, TOO_MANY))
  t.teardown(api.restore)
  t.ok(await screen.findByText("You're doing that too often. Wait a moment and try again."))
})

await t.test('other failures keep the server message (in plain words), whatever their headers', async (t) => {
  const api = await tryLogin({
    ...fail(401, 'The credentials you entered are invalid. Unauthorized access error.'),
    headers: { 'retry-after': '30' },
  })
  t.teardown(api.restore)
  t.ok(await screen.findByText('The credentials you entered are invalid. Check the username and password.'))
})
