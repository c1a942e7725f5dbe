import { connect, type Socket } from 'node:net'

/**
 * One event-stream client, lean enough that thousands fit in the benchmark's process beside the server
 * without the client's own work swamping what is measured: a bare socket with a hand-written request, no
 * HTTP parser and no event parsing. It only looks for `marker<seq>` in the raw bytes (each event is one
 * chunk, so a marker is never split by chunk framing) and notes when each sequence number first arrives.
 */
/** Any 16 bytes in base64 will do: the client never checks the server's answer to it. */
const WEBSOCKET_KEY = 'Y2hpcnAtYmVuY2gta2V5IQ=='

export class StreamClient {
  readonly arrivals = new Map<number, number>()
  #socket: Socket | undefined
  #carry: Buffer = Buffer.alloc(0)

  constructor(private readonly marker: Buffer) {}

  /**
   * Resolves once the stream's first comment (`: connected`) arrives: the hub has registered it by then.
   * With `token`, the stream is a WebSocket of Mastodon's streaming API instead, open once the upgrade is
   * answered (the server sends its frames unmasked and uncompressed, so markers show in the raw bytes too).
   */
  open(host: string, port: number, path: string, token?: string): Promise<void> {
    const request =
      token === undefined
        ? `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nAccept: text/event-stream\r\n\r\n`
        : `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${WEBSOCKET_KEY}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${token}\r\n\r\n`
    const [status, ready] = token === undefined ? ['HTTP/1.1 200', ': connected'] : ['HTTP/1.1 101', '\r\n\r\n']
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port })
      this.#socket = socket
      let head = ''
      let opened = false
      socket.on('connect', () => socket.write(request))
      socket.on('data', (chunk: Buffer) => {
        const at = performance.now()
        if (!opened) {
          head += chunk.toString('latin1')
          if (!head.startsWith(status)) {
            if (head.includes('\r\n')) reject(new Error(`the stream answered ${head.split('\r\n')[0]}`))
            return
          }
          if (!head.includes(ready)) return
          opened = true
          resolve()
        }
        this.#scan(chunk, at)
      })
      socket.on('error', reject)
    })
  }

  close(): void {
    this.#socket?.destroy()
  }

  #scan(chunk: Buffer, at: number): void {
    // A marker cut in two by a TCP read boundary is found where the carried tail of the previous read
    // meets the start of this one; everything else is searched in place, without copying.
    const reach = this.marker.length + 12
    if (this.#carry.length > 0) this.#find(Buffer.concat([this.#carry, chunk.subarray(0, reach)]), at, 0)
    this.#find(chunk, at, 0)
    this.#carry = chunk.length >= reach ? chunk.subarray(chunk.length - reach) : Buffer.from(chunk)
  }

  #find(bytes: Buffer, at: number, from: number): void {
    for (;;) {
      const found = bytes.indexOf(this.marker, from)
      if (found === -1) return
      let end = found + this.marker.length
      let seq = 0
      while (end < bytes.length && (bytes[end] as number) >= 48 && (bytes[end] as number) <= 57) {
        seq = seq * 10 + (bytes[end] as number) - 48
        end++
      }
      // Only a number followed by something else is whole; a cut one is found again with the next read.
      if (end < bytes.length && !this.arrivals.has(seq)) this.arrivals.set(seq, at)
      from = end
    }
  }
}
