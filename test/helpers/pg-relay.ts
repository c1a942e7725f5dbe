import net, { type AddressInfo } from 'node:net'
import type { TestContext } from './app.js'
import { TEST_DATABASE_URL } from './pg.js'

/**
 * A TCP relay to the test database, for tests of an app whose connections go away. The app connects
 * through it, so the test knows exactly which backends are the app's (by the relay's local ports, as
 * pg_stat_activity's client_port shows them) even while other suites share the server.
 */
export interface PgRelay {
  /** The test database's URL through the relay. */
  url: string
  /** Whether new connections are let through; existing ones are not touched. */
  open: boolean
  /** The local ports of the relay's connections to PostgreSQL, one per backend of the app. */
  ports(): number[]
  /** Bytes PostgreSQL has sent the app so far, over every connection. */
  readonly received: number
  /** Drops every relayed connection at the TCP level, as a network fault would. */
  cut(): void
}

export async function startPgRelay(t: TestContext): Promise<PgRelay> {
  const target = new URL(TEST_DATABASE_URL)
  const upstreams = new Set<net.Socket>()
  const sockets = new Set<net.Socket>()
  let received = 0
  const relay: PgRelay = {
    url: '',
    open: true,
    get received() {
      return received
    },
    ports: () => [...upstreams].flatMap((socket) => (socket.localPort === undefined ? [] : [socket.localPort])),
    cut: () => {
      for (const socket of sockets) socket.destroy()
    },
  }
  const server = net.createServer((client) => {
    if (!relay.open) return client.destroy()
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    upstreams.add(upstream)
    upstream.on('data', (chunk: Buffer) => (received += chunk.length))
    const pair = [client, upstream]
    for (const socket of pair) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy())
      // A side that ends passes its end on through the pipe; one that fails takes the other with it.
      socket.on('close', (hadError) => {
        sockets.delete(socket)
        upstreams.delete(socket)
        if (hadError) for (const other of pair) other.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    relay.cut()
    return new Promise((resolve) => server.close(resolve))
  })
  const url = new URL(TEST_DATABASE_URL)
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  relay.url = url.toString()
  return relay
}
