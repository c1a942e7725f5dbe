import { parentPort, workerData } from 'node:worker_threads'
import { StreamClient } from './sse-client.js'

/**
 * A share of the fan-out leg's streams, in a thread of its own so that reading thousands of sockets is
 * spread over the cores instead of queueing behind one event loop. Streams are opened in batches the
 * main thread sends (`{ open: tickets }`), each answered once all of its streams are open. Times are
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

async function openAll(tickets: readonly string[]): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(50, tickets.length) }, async () => {
    while (next < tickets.length) {
      const ticket = tickets[next++] as string
      const stream = new StreamClient(Buffer.from(marker))
      streams.push(stream)
      await stream.open(host, port, `/api/events?ticket=${encodeURIComponent(ticket)}`)
    }
  })
  await Promise.all(lanes)
}

port_.on('message', (message: 'collect' | 'close' | { open: string[] }) => {
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
