import { FetchError, ofetch } from 'ofetch'
import { readToken } from '../lib/storage.js'
import { OFFLINE_TEXT, plainServerMessage } from './error-text.js'

let onUnauthorized: () => void = () => {}
let onReachable: (reachable: boolean) => void = () => {}

/** Called when a request that carried a token is answered 401: the session is no longer valid. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler
}

/** Called after every call with whether the server was reached: any answer of its own says it was. */
export function setReachabilityHandler(handler: (reachable: boolean) => void): void {
  onReachable = handler
}

/** A proxy's answers for a server it could not reach (502, 504), which the server itself never sends. */
const GATEWAY_FAILURES = new Set([502, 504])

/** The one HTTP client of the app: JSON under /api, the session token on every call that has one. */
export const http = ofetch.create({
  baseURL: '/api',
  // Retrying a like or a post would repeat a write; a failed read is retried by the user instead.
  retry: 0,
  onRequest({ options }) {
    const token = readToken()
    if (token) options.headers.set('authorization', `Bearer ${token}`)
  },
  onRequestError({ error }) {
    // An abort is the client's own doing and says nothing about the network.
    if (error.name !== 'AbortError') onReachable(false)
  },
  onResponse({ response }) {
    onReachable(!GATEWAY_FAILURES.has(response.status))
  },
  onResponseError({ response, options }) {
    if (response.status === 401 && options.headers.has('authorization')) onUnauthorized()
  },
})

/** How far an upload has come: bytes sent of the whole body. */
export type UploadProgress = { loaded: number; total: number }

/** A failed call as the error `http` throws, so errorMessage, errorStatus and errorCode read it alike. */
export function callError(status: number | undefined, data: unknown, headers: Headers): FetchError {
  const error = new FetchError(
    status === undefined ? 'The upload did not reach the server.' : `Upload failed: ${status}`,
  )
  const response = status === undefined ? undefined : new Response(null, { status, headers })
  Object.defineProperties(error, {
    data: { value: data },
    status: { value: status },
    statusCode: { value: status },
    response: { value: response },
  })
  return error
}

/** An XMLHttpRequest's response headers, as fetch keeps them. */
function headersOf(xhr: XMLHttpRequest): Headers {
  const headers = new Headers()
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const at = line.indexOf(':')
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim())
  }
  return headers
}

/**
 * A multipart POST under /api that reports its upload's progress, which fetch cannot: an XMLHttpRequest
 * with the session token, answered and failing as `http` does. `onUploaded` runs once the body is sent,
 * while the server works on it.
 */
export function upload<T>(
  path: string,
  body: FormData,
  handlers: { onProgress?: (progress: UploadProgress) => void; onUploaded?: () => void } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `/api${path}`)
    const token = readToken()
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) handlers.onProgress?.({ loaded: event.loaded, total: event.total })
    }
    xhr.upload.onload = () => handlers.onUploaded?.()
    xhr.onerror = () => {
      onReachable(false)
      reject(callError(undefined, undefined, new Headers()))
    }
    xhr.onload = () => {
      onReachable(!GATEWAY_FAILURES.has(xhr.status))
      let data: unknown
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined
      } catch {
        data = undefined
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as T)
        return
      }
      if (xhr.status === 401 && token) onUnauthorized()
      reject(callError(xhr.status, data, headersOf(xhr)))
    }
    xhr.send(body)
  })
}

/** RFC 7240: post and comment writes then answer with the changed post only (docs/api-contract.md §2). */
export const RETURN_MINIMAL = { Prefer: 'return=minimal' } as const

/** "2 minutes", "1 second": how long a wait is, rounded up to what a person reads. */
function waitText(seconds: number): string {
  const [count, unit] = seconds < 60 ? [Math.max(1, Math.ceil(seconds)), 'second'] : [Math.ceil(seconds / 60), 'minute']
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}

/** Seconds until Retry-After (whole seconds or an HTTP date) lets the call be made again; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000)
}

/**
 * The message to show for a failed call: the server's `{ errors: [msg] }` in plain words, else a plain
 * fallback. A 429 says how long to wait, from Retry-After, rather than only "later", and, given `action`
 * ("like this post"), what was held back: writes share one limit, so a refused like is not a login attempt.
 */
export function errorMessage(error: unknown, action?: string): string {
  if (error instanceof FetchError) {
    const status = error.statusCode
    if (status === undefined) return OFFLINE_TEXT
    const wait = status === 429 ? retryAfterSeconds(error.response?.headers.get('retry-after')) : undefined
    if (wait !== undefined) {
      const retry = `Try again in ${waitText(wait)}.`
      return action ? `Couldn't ${action}: too many actions in a short time. ${retry}` : `Too many attempts. ${retry}`
    }
    return (
      plainServerMessage(serverMessage(error) ?? '', status, errorCode(error)) ||
      'Something went wrong. Please try again.'
    )
  }
  return error instanceof Error ? error.message : 'Something went wrong. Please try again.'
}

/**
 * Whether the same call may well work if tried again at once: no answer, a timeout, a failing server.
 * A 429 is not: its message says how long to wait.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof FetchError)) return false
  const status = error.statusCode
  return status === undefined || status === 408 || status >= 500
}

/** The server's own message for a failed call, word for word, as common/messages.ts holds it. */
function serverMessage(error: unknown): string | undefined {
  const data =
    error instanceof FetchError ? (error.data as { errors?: unknown; error?: unknown } | undefined) : undefined
  const errors = data?.errors
  if (Array.isArray(errors) && typeof errors[0] === 'string') return errors[0]
  // The Mastodon routes, which the client uses for filters, say it under `error`.
  return typeof data?.error === 'string' ? data.error : undefined
}

/** The error's code, as the server's error body carries it (common/error-codes.ts). */
export function errorCode(error: unknown): string | undefined {
  const code = error instanceof FetchError ? (error.data as { code?: unknown } | undefined)?.code : undefined
  return typeof code === 'string' ? code : undefined
}

/**
 * Whether a failed read may bring something else if asked again. An answer that settles it (a 404: it is
 * not there; a 400 or 403) will be the same answer, so no Try again is offered for it.
 */
export function isRetryable(error: unknown): boolean {
  const status = errorStatus(error)
  return status === undefined || status === 408 || status === 429 || status >= 500
}

/** The HTTP status of a failed call, if the server answered at all. */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof FetchError ? error.statusCode : undefined
}

export function pageQuery(page: { limit?: number; cursor?: string | null }): Record<string, string | number> {
  const query: Record<string, string | number> = {}
  if (page.limit !== undefined) query.limit = page.limit
  if (page.cursor) query.cursor = page.cursor
  return query
}

/**
 * The query of a list of posts: a page of it, compact. In a compact post `likedBy` holds only me when I
 * like it, `dislikedBy` and `comments` are empty, and `likeCount` and `commentCount` are the true counts,
 * so a list costs the same however popular its posts; a post's comments are read when they are opened.
 * A server that does not know `compact` sends whole posts, which read the same (lib/model.ts).
 */
export function postListQuery(page: { limit?: number; cursor?: string | null }): Record<string, string | number> {
  return { compact: 1, ...pageQuery(page) }
}
