import http from 'node:http'
import net from 'node:net'
import type { Test } from 'tap'

/** One block of an event stream, split into its fields; comment lines are kept apart. */
export interface SseMessage {
  id?: string
  event?: string
  data?: string
  retry?: string
  comments: string[]
}

export interface SseClient {
  status: number
  headers: http.IncomingHttpHeaders
  /** Everything received so far, as text. */
  readonly text: string
  /** The next whole message not yet taken, waiting at most `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage>
  /** Takes messages until one matches, failing after `timeoutMs` in all. */
  until(match: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>
  /** Settles when the server ends the response or the connection drops. */
  ended: Promise<void>
  close(): void
}

function parseBlock(block: string): SseMessage {
  const message: SseMessage = { comments: [] }
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      message.comments.push(line.slice(1).trim())
      continue
    }
    const colon = line.indexOf(':')
    const field = line.slice(0, colon)
    const value = line.slice(colon + 1).replace(/^ /, '')
    if (field === 'id' || field === 'event' || field === 'data' || field === 'retry') message[field] = value
  }
  return message
}

/** Opens a stream over real HTTP on 127.0.0.1 and parses it as the bytes arrive. */
export function openSse(port: number, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy()
      reject(new Error(`no response to GET ${path} within 2000 ms`))
    }, 2000)
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      clearTimeout(timer)
      let text = ''
      let pending = ''
      const queue: SseMessage[] = []
      let wake: (() => void) | undefined
      const ended = new Promise<void>((done) => {
        res.on('end', done)
        res.on('close', done)
        res.on('error', () => done())
      })
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        pending += chunk
        let end: number
        while ((end = pending.indexOf('\n\n')) !== -1) {
          queue.push(parseBlock(pending.slice(0, end)))
          pending = pending.slice(end + 2)
        }
        wake?.()
      })
      async function next(timeoutMs = 2000): Promise<SseMessage> {
        const deadline = Date.now() + timeoutMs
        while (queue.length === 0) {
          const left = deadline - Date.now()
          if (left <= 0) throw new Error(`no SSE message within ${timeoutMs} ms; got so far: ${JSON.stringify(text)}`)
          await new Promise<void>((woken) => {
            const timer = setTimeout(woken, left)
            wake = () => {
              clearTimeout(timer)
              woken()
            }
          })
          wake = undefined
        }
        return queue.shift() as SseMessage
      }
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        get text() {
          return text
        },
        next,
        async until(match, timeoutMs = 2000) {
          const deadline = Date.now() + timeoutMs
          for (;;) {
            const message = await next(Math.max(1, deadline - Date.now()))
            if (match(message)) return message
          }
        },
        ended,
        close: () => req.destroy(),
      })
    })
    req.on('error', reject)
  })
}

/**
 * Sends a GET on a raw socket and never reads the answer, like a client whose tab froze: the kernel
 * buffers fill and the server's writes start to queue.
 */
export async function openStalledSocket(port: number, path: string): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  socket.on('error', () => {})
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`)
  socket.pause()
  return socket
}

/** Polls `check` every few ms until it holds, failing after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 2000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** `promise`, or a failure after `timeoutMs`, so a broken behaviour fails its test instead of hanging it. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** The head every stream must start with (docs/api-contract.md §7), whichever server sent it. */
export function checkSseHead(t: Test, c: SseClient): void {
  t.equal(c.status, 200)
  t.equal(c.headers['content-type'], 'text/event-stream; charset=utf-8')
  t.equal(c.headers['cache-control'], 'no-store')
  t.equal(c.headers['connection'], 'keep-alive')
  t.equal(c.headers['x-accel-buffering'], 'no', 'proxies must not buffer the stream')
  t.ok(c.text.startsWith(': connected\n'), 'a comment comes first')
}
