// A bare Fastify route for each of Chirp's reads, sending the bytes that read answered, fetched once
// before the rounds: the physical limit of those bytes over this transport, with no work but sending them.
// Plain JavaScript, like hello-server.mjs, so it starts without a TypeScript loader.
import { readFile } from 'node:fs/promises'
import Fastify from 'fastify'

/** [{ path, contentType, file }]: the body of each route in its own file. */
const routes = JSON.parse(process.env.ROUTES ?? '[]')
const app = Fastify({ logger: false })
for (const { path, contentType, file } of routes) {
  const body = await readFile(file)
  app.get(path, (request, reply) => {
    reply.type(contentType).send(body)
  })
}
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3002) })
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => app.close().then(() => process.exit(0)))
