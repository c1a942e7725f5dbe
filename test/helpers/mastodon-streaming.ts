import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import WebSocket from 'ws'
import { openSse, type SseClient } from './sse.js'

/** A message of Mastodon's streaming API: an event of a stream, or the refusal of a message sent. */
export interface StreamMessage {
  stream?: string[]
  event?: string
  payload?: string
  error?: string
  status?: number
}

/** A WebSocket to /api/v1/streaming, its messages parsed as they arrive. */
export interface StreamSocket {
  /** The subprotocol the server chose (the token, when it came that way). */
  protocol: string
  send(message: object | string): void
  /** The next message not yet taken, within `timeoutMs`. */
  next(timeoutMs?: number): Promise<StreamMessage>
  /** Takes messages until one matches, failing after `timeoutMs` in all. */
  until(match: (message: StreamMessage) => boolean, timeoutMs?: number): Promise<StreamMessage>
  /**
   * Sends a message the server refuses and waits for its refusal: the server reads messages in order, so
   * every message sent before has been acted on.
   */
  settled(): Promise<void>
  /** Settles with the close code once the socket has closed. */
  closed: Promise<number>
  close(): void
}

/** Where a socket that was not let in was stopped: the HTTP answer to its upgrade. */
export interface Refusal {
  status: number
  body: string
}

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port
const BARRIER = 'barrier'

/** Opens a socket to the app's /api/v1/streaming with `query`, and the token in a header or as the subprotocol. */
export function openSocket(
  app: FastifyInstance,
  { query = '', protocol, headers = {} }: { query?: string; protocol?: string; headers?: Record<string, string> } = {},
): Promise<StreamSocket | Refusal> {
  const url = `ws://127.0.0.1:${portOf(app)}/api/v1/streaming${query === '' ? '' : `?${query}`}`
  const ws = new WebSocket(url, protocol === undefined ? [] : [protocol], { headers })
  const queue: StreamMessage[] = []
  let wake: (() => void) | undefined
  ws.on('message', (data: Buffer) => {
    queue.push(JSON.parse(data.toString()) as StreamMessage)
    wake?.()
  })
  const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)))
  async function next(timeoutMs = 3000): Promise<StreamMessage> {
    const deadline = Date.now() + timeoutMs
    while (queue.length === 0) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no streaming message within ${timeoutMs} ms`)
      await new Promise<void>((woken) => {
        const timer = setTimeout(woken, left)
        wake = () => {
          clearTimeout(timer)
          woken()
        }
      })
    }
    return queue.shift() as StreamMessage
  }
  async function until(match: (message: StreamMessage) => boolean, timeoutMs = 3000): Promise<StreamMessage> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const message = await next(Math.max(1, deadline - Date.now()))
      if (match(message)) return message
    }
  }
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        ws.terminate()
        resolve({ status: res.statusCode ?? 0, body })
      })
    })
    ws.on('error', reject)
    ws.on('open', () =>
      resolve({
        protocol: ws.protocol,
        send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
        next,
        until,
        async settled() {
          ws.send(JSON.stringify({ type: BARRIER }))
          const kept: StreamMessage[] = []
          for (;;) {
            const message = await next()
            if (message.status === 400 && message.error !== undefined) break
            kept.push(message)
          }
          queue.unshift(...kept)
        },
        closed,
        close: () => ws.close(),
      }),
    )
  })
}

/** The streams each app should hold, as the sockets and event streams opened here come and go. */
const expected = new WeakMap<FastifyInstance, number>()

/** Waits until the app's events hub holds the streams expected of it. */
async function streamsSettled(app: FastifyInstance, timeoutMs = 3000): Promise<void> {
  const want = expected.get(app) ?? 0
  const deadline = Date.now() + timeoutMs
  while (app.events.size !== want) {
    if (Date.now() > deadline) throw new Error(`${app.events.size} streams open, not ${want}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Counts one more stream of the app until it has closed, whichever side closed it; closed when the test ends. */
async function tracked(t: Test, app: FastifyInstance, close: () => void, closed: Promise<unknown>): Promise<void> {
  expected.set(app, (expected.get(app) ?? 0) + 1)
  void closed.then(() => expected.set(app, (expected.get(app) ?? 0) - 1))
  t.teardown(async () => {
    close()
    await closed
    await streamsSettled(app)
  })
  await streamsSettled(app)
}

/**
 * A socket that must open, once the events hub hears it (events from then on reach it); closed when
 * the test ends. Only for apps whose streams are all opened through here.
 */
export async function socketOf(t: Test, app: FastifyInstance, options: Parameters<typeof openSocket>[1]) {
  const opened = await openSocket(app, options)
  if ('status' in opened) throw new Error(`the socket was refused: ${opened.status} ${opened.body}`)
  await tracked(t, app, () => opened.close(), opened.closed)
  return opened
}

/** A stream as server-sent events under /api/v1/streaming, once the hub hears it; closed when the test ends. */
export async function sseOf(t: Test, app: FastifyInstance, path: string, token: string): Promise<SseClient> {
  const client = await openSse(portOf(app), `/api/v1/streaming/${path}`, { authorization: `Bearer ${token}` })
  if (client.status !== 200) throw new Error(`the stream was refused: ${client.status}`)
  await tracked(t, app, () => client.close(), client.ended)
  return client
}
