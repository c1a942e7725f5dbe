import Fastify from 'fastify'
import fp from 'fastify-plugin'
import app, { serverOptions } from './app.js'
import { parseConfig } from './config.js'
import { StartupError } from './errors.js'

/** The process: read the environment once, register the app on a server, listen, and close cleanly on a signal. */
async function main() {
  const config = parseConfig(process.env)
  const server = Fastify(serverOptions(config))
  // Every acknowledged write is on disk, so exiting loses nothing; the supervisor's restart reads the disk.
  await server.register(fp(app), { config, onStoreBroken: () => process.exit(1) })
  let closing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    server.log.info({ signal }, 'shutting down')
    // A client still reading a response gets a few seconds to finish it, then its connection is cut so the
    // close can complete within Docker's stop timeout; acknowledged writes are already on disk either way.
    setTimeout(() => server.server.closeAllConnections(), 3_000).unref()
    setTimeout(() => process.exit(1), 9_000).unref()
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
  await server.listen({ host: config.host, port: config.port })
}

main().catch((error: unknown) => {
  // Configuration and data-directory problems are the operator's to fix: say what, without a stack.
  console.error(error instanceof StartupError ? `chirp: ${error.message}` : error)
  process.exit(1)
})
