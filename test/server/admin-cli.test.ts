import t from 'tap'
import { runAdmin } from '../../server/cli/admin.js'
import { buildApiApp } from '../helpers/api.js'
import { testDatabaseUrl } from '../helpers/store-under-test.js'

/** `npm run admin -- role <username> <role>` on the store the server would open (DECISIONS §8 and §11). */
const lines = () => {
  const out = { log: [] as string[], error: [] as string[] }
  return { out, sink: { log: (line: string) => out.log.push(line), error: (line: string) => out.error.push(line) } }
}

await t.test('sets a role, logged in the audit log as "cli"; refuses bad use and unknown users', async (t) => {
  const first = await buildApiApp(t)
  const env: Record<string, string | undefined> =
    first.schema === undefined
      ? { DATA_DIR: first.dataDir }
      : { DATA_DIR: first.dataDir, DATABASE_URL: testDatabaseUrl, DATABASE_SCHEMA: first.schema }
  if (first.schema === undefined) {
    const held = lines()
    t.equal(
      await runAdmin(['role', 'maya.lin', 'admin'], env, held.sink),
      1,
      'the embedded store is held by the server',
    )
    t.match(held.out.error.join('\n'), /in use by another Chirp process/)
    await first.app.close()
  }
  const done = lines()
  t.equal(await runAdmin(['role', 'maya.lin', 'admin'], env, done.sink), 0, done.out.error.join('\n'))
  t.strictSame(done.out.log, ['maya.lin is now admin.'])
  const usage = lines()
  t.equal(await runAdmin(['role', 'maya.lin', 'owner'], env, usage.sink), 2)
  t.match(usage.out.error.join('\n'), /usage: npm run admin -- role <username> admin\|moderator\|user/)
  const unknown = lines()
  t.equal(await runAdmin(['role', 'nobody_here', 'admin'], env, unknown.sink), 1)
  t.match(unknown.out.error.join('\n'), /User not found/)
  const guest = lines()
  t.equal(await runAdmin(['role', 'guest', 'moderator'], env, guest.sink), 1, 'the guest is never raised')
  t.match(guest.out.error.join('\n'), /cannot hold a role above user/)

  const api = first.schema === undefined ? await buildApiApp(t, { dataDir: first.dataDir }) : first
  const admin = await api.login('maya.lin')
  const log = await api.as(admin, { method: 'GET', url: '/api/admin/log' })
  t.equal(log.statusCode, 200, 'maya.lin reads the audit log as an admin')
  t.match((log.json() as { entries: unknown[] }).entries, [
    { actor: 'cli', action: 'set-role', targetType: 'user', reason: 'admin' },
  ])
})
