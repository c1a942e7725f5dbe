import { Agent, request } from 'node:http'
import type { SocketConstructorOpts } from 'node:net'

/** The few API calls the benchmark makes outside autocannon: logging in, writing, trading tickets. */
export interface Session {
  base: string
  token: string
}

/**
 * node:http with kept-alive connections rather than fetch: on this path fetch's body write waits on
 * Nagle and the server's delayed ACK, adding tens of milliseconds that would be counted against the server.
 */
// Agent passes socket.connect()'s options on to its sockets, but its type does not list them.
const socketOptions: Pick<SocketConstructorOpts, 'noDelay'> = { noDelay: true }
const agent = new Agent({ keepAlive: true, maxSockets: 64, ...socketOptions })

/** One request on the kept-alive agent, its answer's body as bytes. */
export function sendRaw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          bytes: Buffer.concat(chunks),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export async function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const { status, bytes } = await sendRaw(base, method, path, headers, body)
  return { status, text: bytes.toString('utf8') }
}

export async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; expect?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = { prefer: 'return=minimal' }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const { status, text } = await send(
    base,
    method,
    path,
    headers,
    options.body === undefined ? undefined : JSON.stringify(options.body),
  )
  if (status !== (options.expect ?? status) || status >= 400)
    throw new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`)
  return (text ? JSON.parse(text) : undefined) as T
}

export async function login(base: string, username: string, password: string): Promise<Session> {
  const reply = await call<{ encodedToken: string }>(base, 'POST', '/api/auth/login', { body: { username, password } })
  return { base, token: reply.encodedToken }
}

/** Headers of an authenticated autocannon request. */
export function authHeaders(session: Session): Record<string, string> {
  return { authorization: `Bearer ${session.token}` }
}

/** Headers of an authenticated write with an empty JSON body that wants only the changed post back. */
export function writeHeaders(session: Session): Record<string, string> {
  return { ...authHeaders(session), 'content-type': 'application/json', prefer: 'return=minimal' }
}

/** One page of a list read as a client gets it (no compression): its size in bytes and how many items it holds. */
export async function pageOf(session: Session, path: string): Promise<{ bytes: number; items: number }> {
  const { status, bytes } = await sendRaw(session.base, 'GET', path, authHeaders(session))
  const text = bytes.toString('utf8')
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${text.slice(0, 200)}`)
  const body = JSON.parse(text) as Record<string, unknown>
  const list = Object.values(body).find(Array.isArray) as unknown[] | undefined
  return { bytes: bytes.length, items: list?.length ?? 0 }
}
