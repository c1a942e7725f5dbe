import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'
import { startPgRelay } from '../helpers/pg-relay.js'

/**
 * A database that goes away: the app behind a TCP relay to PostgreSQL that the test can cut and restore.
 * Health must say 503 while it is gone and 200 once it is back, and the process must keep running.
 */
await onPostgres(async () => {
  const { buildApiApp } = await import('../helpers/api.js')
  const relay = await startPgRelay(t)

  const api = await buildApiApp(t, { config: { databaseUrl: relay.url } })
  const health = () => api.app.inject({ method: 'GET', url: '/api/health' })

  await t.test('health answers 503 while the database is unreachable, and 200 again once it is back', async (t) => {
    t.match((await health()).json(), { status: 'ok', store: 'postgres' })
    relay.open = false
    relay.cut()
    const down = await health()
    t.equal(down.statusCode, 503, 'unreachable')
    t.strictSame(down.json(), { errors: ['The database cannot be reached.'], code: 'database_unreachable' })
    const token = await api.login('guest').catch((error: Error) => error)
    t.type(token, Error, 'a call that needs the database fails cleanly meanwhile')
    relay.open = true
    let back = await health()
    for (let tries = 0; back.statusCode !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      back = await health()
    }
    t.equal(back.statusCode, 200, 'the pool reconnects by itself')
    t.ok(await api.login('guest'), 'and the app works again')
  })
})
