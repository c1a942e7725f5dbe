import t from 'tap'
import { MSG } from '../../server/errors.js'
import { JOB_KINDS, JobsReplySchema } from '../../server/schemas/jobs.js'
import type { JobHandler } from '../../server/services/jobs.js'
import { buildApiApp, expectError, expectOk, signup } from '../helpers/api.js'
import { QUICK_JOBS, untilOverview } from '../helpers/jobs.js'
import { buildModerationApp, call, seedWithStaff } from '../helpers/moderation.js'

/**
 * GET /api/admin/jobs (DECISIONS §16): admins only; every kind's jobs by state and the latest failures
 * with their last error. And jobs through a restart: a run cut short by closing the app is given back,
 * and the next start runs it. The PostgreSQL pass runs this file on PostgreSQL.
 */

/** Nothing listens on port 1: every mail fails to connect, and its job fails after QUICK_JOBS' retries. */
const DEAD_SMTP = 'smtp://127.0.0.1:1'

await t.test('only admins see the queue', async (t) => {
  const { api, admin, moderator } = await buildModerationApp(t)
  const someone = await signup(api)
  expectError(t, await call(api, undefined, 'GET', '/api/admin/jobs'), 401, MSG.invalidToken)
  for (const [who, token] of [
    ['a user', someone.token],
    ['a moderator', moderator],
  ] as const) {
    const res = await call(api, token, 'GET', '/api/admin/jobs')
    t.equal(res.statusCode, 403, `${who} is refused`)
  }
  const reply = expectOk(t, await call(api, admin, 'GET', '/api/admin/jobs'), 200, JobsReplySchema)
  t.strictSame(Object.keys(reply.kinds), [...JOB_KINDS], 'every kind, those without work yet too')
  t.strictSame(reply.kinds.push, { queued: 0, running: 0, done: 0, failed: 0 })
})

await t.test('a mail that cannot be sent is retried, then listed as a failure with its last error', async (t) => {
  const { api, admin } = await buildModerationApp(t, { smtpUrl: DEAD_SMTP, ...QUICK_JOBS })
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/auth/password-reset',
    payload: { email: 'maya@chirp.local' },
  })
  t.equal(res.statusCode, 200, 'the request is answered at once')
  const reply = await untilOverview(api, admin, (r) => r.kinds.mail?.failed === 1)
  t.strictSame(reply.kinds.mail, { queued: 0, running: 0, done: 0, failed: 1 })
  const [failure] = reply.failures
  t.match(failure, { kind: 'mail', lastError: /ECONNREFUSED/ })
  t.ok((failure?.attempts ?? 0) >= 2, `tried ${failure?.attempts} times before failing`)
  expectOk(t, await call(api, admin, 'GET', '/api/admin/jobs'), 200, JobsReplySchema)
})

await t.test('a run cut short by closing the app runs again at the next start', async (t) => {
  const config = { pollDaySeconds: 1, ...QUICK_JOBS }
  // The first instance's poll-close runs never finish before it closes.
  const unfinished: JobHandler = (_job, run) =>
    new Promise((_resolve, reject) => run.signal.addEventListener('abort', () => reject(new Error('stopped'))))
  const first = await buildApiApp(t, {
    config,
    options: { seed: seedWithStaff, jobHandlers: { 'poll-close': unfinished } },
  })
  const author = await signup(first)
  const res = await call(first, author.token, 'POST', '/api/posts', {
    content: 'q?',
    poll: { options: ['a', 'b'], days: 1 },
  })
  t.equal(res.statusCode, 201)
  await untilOverview(first, await first.login('maya.lin'), (r) => (r.kinds['poll-close']?.running ?? 0) >= 1)
  await first.app.close()

  const second = await buildApiApp(t, { config, dataDir: first.dataDir, options: { seed: seedWithStaff } })
  const admin = await second.login('maya.lin')
  await untilOverview(second, admin, (r) => r.kinds['poll-close']?.queued === 0 && r.kinds['poll-close'].running === 0)
  const notes = (await call(second, author.token, 'GET', '/api/notifications')).json() as {
    notifications: { type: string }[]
  }
  t.strictSame(
    notes.notifications.map((n) => n.type),
    ['poll'],
    'its author is told, once, with nobody reading the poll',
  )
})
