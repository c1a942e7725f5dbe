import type { AddressInfo } from 'node:net'
import type { TSchema } from '@sinclair/typebox'
import type { Test } from 'tap'
import type { AllEventPayloads } from '../../server/schemas/events.js'
import type { Post } from '../../server/schemas/posts.js'
import { TicketReplySchema } from '../../server/schemas/events.js'
import { buildApiApp, checkSchema, expectOk, type SignedUp } from './api.js'
import type { TestApp, TestContext } from './app.js'
import { openSse, type SseClient, type SseMessage } from './sse.js'

/** An API app listening on 127.0.0.1, with what the live-update suites do to it: writes over app.inject, streams over HTTP. */
export interface LiveApi {
  api: TestApp
  /** A write with `Prefer: return=minimal`. */
  write: (who: SignedUp, method: 'POST' | 'DELETE', url: string, payload?: object) => ReturnType<TestApp['as']>
  newPost: (who: SignedUp, content: string) => Promise<Post>
  /** Opens one stream for `who`: a ticket from the API, then GET /api/events. Closed when the test ends. */
  stream: (t: Test, who: SignedUp) => Promise<SseClient>
  /** The next named event on the stream, skipping comments, heartbeats and id-only messages. */
  nextEvent: (client: SseClient) => Promise<SseMessage>
  /** The events about posts and comments the stream gets until the `post.created` of `marker`, as `name postId`. */
  postEventsUntil: (client: SseClient, marker: string) => Promise<string[]>
  /** The next event must be `name`, with an id and data matching `schema`; returns the data. */
  expectEvent: <K extends keyof AllEventPayloads>(
    t: Test,
    client: SseClient,
    name: K,
    schema: TSchema,
  ) => Promise<AllEventPayloads[K]>
}

export async function buildLiveApi(t: TestContext, options: Parameters<typeof buildApiApp>[1] = {}): Promise<LiveApi> {
  const api = await buildApiApp(t, options)
  await api.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (api.app.server.address() as AddressInfo).port
  const write: LiveApi['write'] = (who, method, url, payload) =>
    api.as(who.token, { method, url, headers: { prefer: 'return=minimal' }, ...(payload ? { payload } : {}) })
  const nextEvent = (client: SseClient) => client.until((message) => message.event !== undefined, 3000)
  return {
    api,
    write,
    nextEvent,
    async postEventsUntil(client, marker) {
      const seen: string[] = []
      for (;;) {
        const message = await nextEvent(client)
        const data = JSON.parse(message.data ?? '{}') as { postId?: string; post?: { _id: string } }
        const postId = data.postId ?? data.post?._id
        if (message.event === 'post.created' && postId === marker) return seen
        if (/^(post|comment)\./.test(message.event ?? '')) seen.push(`${message.event} ${postId}`)
      }
    },
    async newPost(who, content) {
      return ((await write(who, 'POST', '/api/posts', { content })).json() as { post: Post }).post
    },
    async stream(t, who) {
      const res = await api.as(who.token, { method: 'POST', url: '/api/events/ticket' })
      const { ticket } = expectOk(t, res, 200, TicketReplySchema, 'ticket')
      const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`)
      t.teardown(() => client.close())
      t.equal(client.status, 200, 'the stream opens')
      return client
    },
    async expectEvent(t, client, name, schema) {
      const message = await nextEvent(client)
      t.equal(message.event, name, `event ${name}`)
      t.match(message.id, /^\d+$/, `${name} has an id`)
      const data = JSON.parse(message.data ?? 'null') as AllEventPayloads[typeof name]
      checkSchema(t, schema, data, `${name} data matches its schema`)
      return data
    },
  }
}
