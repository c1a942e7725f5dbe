import { parentPort, workerData } from 'node:worker_threads'
import { StreamClient } from './sse-client.js'

/**
 * A share of the fan-out leg's streams, in a thread of its own so that reading thousands of sockets is
 * spread over the cores instead of queueing behind one event loop. Streams are opened in batches the
 * main thread sends (`{ open: targets }`), each answered once all of its streams are open. Times are
 * absolute (timeOrigin + now), so they compare with the main thread's.
 */
interface Job {
  host: string
  port: number
  marker: string
}

const { host, port, marker } = workerData as Job
const port_ = parentPort
if (!port_) throw new Error('fanout-worker runs as a worker thread')
const streams: StreamClient[] = []

/** A stream to open: a path, and for a WebSocket of Mastodon's streaming API the token it sends. */
export interface StreamTarget {
  path: string
  token?: string
}

async function openAll(targets: readonly StreamTarget[]): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(50, targets.length) }, async () => {
    while (next < targets.length) {
      const { path, token } = targets[next++] as StreamTarget
      const stream = new StreamClient(Buffer.from(marker))
      streams.push(stream)
      await stream.open(host, port, path, token)
    }
  })
  await Promise.all(lanes)
}

port_.on('message', (message: 'collect' | 'close' | { open: StreamTarget[] }) => {
  if (message === 'collect') {
    const origin = performance.timeOrigin
    port_.postMessage({
      arrivals: streams.map((stream) => [...stream.arrivals].map(([seq, at]) => [seq, origin + at])),
    })
  } else if (message === 'close') {
    for (const stream of streams) stream.close()
    port_.close()
  } else {
    openAll(message.open).then(
      () => port_.postMessage({ open: streams.length }),
      (error: unknown) => port_.postMessage({ error: String(error) }),
    )
  }
})
