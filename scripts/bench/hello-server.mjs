// The server of Fastify's own benchmarks (fastify/benchmarks): one route with a response schema answering
// {"hello":"world"}, no logger. Plain JavaScript, so it starts without a TypeScript loader.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
const schema = { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } }
app.get('/', { schema }, (request, reply) => {
  reply.send({ hello: 'world' })
})
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3001) })
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => app.close().then(() => process.exit(0)))
