import net from 'node:net'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { TEST_DATABASE_URL } from '../helpers/pg.js'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * A database that goes away: the app behind a TCP relay to PostgreSQL that the test can cut and restore.
 * Health must say 503 while it is gone and 200 once it is back, and the process must keep running.
 */
await onPostgres(async () => {
  const { buildApiApp } = await import('../helpers/api.js')
  const target = new URL(TEST_DATABASE_URL)
  const sockets = new Set<net.Socket>()
  let open = true
  const relay = net.createServer((client) => {
    if (!open) return client.destroy()
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => socket.destroy())
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => relay.close(resolve)))
  const relayed = new URL(TEST_DATABASE_URL)
  relayed.host = `127.0.0.1:${(relay.address() as AddressInfo).port}`

  const api = await buildApiApp(t, { config: { databaseUrl: relayed.toString() } })
  const health = () => api.app.inject({ method: 'GET', url: '/api/health' })

  await t.test('health answers 503 while the database is unreachable, and 200 again once it is back', async (t) => {
    t.match((await health()).json(), { status: 'ok', store: 'postgres' })
    open = false
    for (const socket of sockets) socket.destroy()
    const down = await health()
    t.equal(down.statusCode, 503, 'unreachable')
    t.strictSame(down.json(), { errors: ['The database cannot be reached.'] })
    const token = await api.login('guest').catch((error: Error) => error)
    t.type(token, Error, 'a call that needs the database fails cleanly meanwhile')
    open = true
    let back = await health()
    for (let tries = 0; back.statusCode !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      back = await health()
    }
    t.equal(back.statusCode, 200, 'the pool reconnects by itself')
    t.ok(await api.login('guest'), 'and the app works again')
  })
})
