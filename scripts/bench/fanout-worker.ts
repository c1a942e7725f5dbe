import { parentPort, workerData } from 'node:worker_threads'
import { StreamClient } from './sse-client.js'

/**
 * A share of the fan-out leg's streams, in a thread of its own so that reading thousands of sockets is
 * spread over the cores instead of queueing behind one event loop. Times are absolute
 * (timeOrigin + now), so they compare with the main thread's.
 */
interface Job {
  host: string
  port: number
  tickets: string[]
  marker: string
}

const { host, port, tickets, marker } = workerData as Job
const port_ = parentPort
if (!port_) throw new Error('fanout-worker runs as a worker thread')
const streams = tickets.map(() => new StreamClient(Buffer.from(marker)))

async function openAll(): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(50, streams.length) }, async () => {
    while (next < streams.length) {
      const i = next++
      await (streams[i] as StreamClient).open(host, port, `/api/events?ticket=${encodeURIComponent(tickets[i] as string)}`)
    }
  })
  await Promise.all(lanes)
}

port_.on('message', (message: 'collect' | 'close') => {
  if (message === 'collect') {
    const origin = performance.timeOrigin
    port_.postMessage({ arrivals: streams.map((stream) => [...stream.arrivals].map(([seq, at]) => [seq, origin + at])) })
  } else {
    for (const stream of streams) stream.close()
    port_.close()
  }
})

openAll().then(
  () => port_.postMessage({ open: streams.length }),
  (error: unknown) => port_.postMessage({ error: String(error) }),
)
