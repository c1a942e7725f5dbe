import type { FastifyInstance, InjectOptions } from 'fastify'

type Method = 'GET' | 'POST' | 'DELETE'

/**
 * Requests as clients written against the original in-browser mock send them: `axios` as axios does,
 * JSON with its content type even when there is no body, and the raw token; `fetchText` as
 * `fetch(url, { method, body: JSON.stringify(data), headers: { authorization } })` does, a string body
 * with no content type of the caller's, which fetch labels text/plain.
 */
export function mockRequests(app: FastifyInstance) {
  return {
    axios: (method: Method, url: string, token?: string, data?: unknown) => {
      const headers: InjectOptions['headers'] = {
        'content-type': 'application/json',
        ...(token ? { authorization: token } : {}),
      }
      return app.inject({ method, url, headers, ...(data === undefined ? {} : { payload: JSON.stringify(data) }) })
    },
    fetchText: (method: Method, url: string, token: string, data: unknown) => {
      const headers = { authorization: token, 'content-type': 'text/plain;charset=UTF-8' }
      return app.inject({ method, url, headers, payload: JSON.stringify(data) })
    },
  }
}
