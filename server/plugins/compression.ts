import fastifyCompress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'

/** Below this a reply fits in a packet or two, where compressing costs more time than it saves. */
const COMPRESS_THRESHOLD_BYTES = 1024

/**
 * Compresses the API's replies for clients that ask (`accept-encoding`), registered inside the /api scope
 * only: /media/ holds JPEG, PNG, GIF and WebP, already compressed, and the built client is served from
 * the brotli and gzip copies made at build time. The event stream is never compressed: its route hands
 * the raw socket to the hub, past every onSend hook, and the plugin's own types leave text/event-stream
 * out besides, so each event still reaches the browser the moment it is written.
 */
export async function registerCompression(api: FastifyInstance): Promise<void> {
  await api.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    // What every browser accepts, the same on every Node version (zstd would depend on it).
    encodings: ['br', 'gzip'],
    // Replies only: inflating request bodies would let a small upload grow past the body limits unseen.
    globalDecompression: false,
  })
}
