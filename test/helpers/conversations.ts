import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { LightMyRequestResponse } from 'fastify'
import type { Conversation } from '../../server/schemas/conversations.js'
import {
  ConversationPostsReplySchema,
  ConversationsReplySchema,
  UnreadConversationsReplySchema,
} from '../../server/schemas/conversations.js'
import type { Post } from '../../server/schemas/posts.js'
import type { SignedUp } from './api.js'
import type { TestApp } from './app.js'
import type { SseClient } from './sse.js'

/** The body of a 200 (or `status`) matching `schema`; anything else throws, failing the test that asked. */
function bodyOf<S extends TSchema>(res: LightMyRequestResponse, schema: S, status = 200): Static<S> {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`)
  const body: unknown = res.json()
  if (!Value.Check(schema, body)) {
    const errors = [...Value.Errors(schema, body)].slice(0, 3).map((e) => `${e.path}: ${e.message}`)
    throw new Error(`the body does not match its schema: ${errors.join('; ')}`)
  }
  return body
}

/** Calls of the direct-message suites (DECISIONS §12), each answer checked against its schema. */
export function conversationCalls(api: Pick<TestApp, 'as'>) {
  const call = (who: SignedUp | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    api.as(who?.token, { method, url, ...(payload ? { payload } : {}) })
  return {
    call,
    /** A direct post by `who`: `extra` may carry `inReplyTo`. */
    dm: async (who: SignedUp, content: string, extra: object = {}): Promise<Post> => {
      const res = await api.as(who.token, {
        method: 'POST',
        url: '/api/posts',
        headers: { prefer: 'return=minimal' },
        payload: { content, visibility: 'direct', ...extra },
      })
      if (res.statusCode !== 201) throw new Error(`the direct post was refused: ${res.statusCode} ${res.body}`)
      return (res.json() as { post: Post }).post
    },
    list: async (who: SignedUp, query = '') =>
      bodyOf(await call(who, 'GET', `/api/conversations${query}`), ConversationsReplySchema),
    open: async (who: SignedUp, id: string, query = '') =>
      bodyOf(await call(who, 'GET', `/api/conversations/${id}${query}`), ConversationPostsReplySchema),
    unread: async (who: SignedUp) =>
      bodyOf(await call(who, 'GET', '/api/conversations/unread'), UnreadConversationsReplySchema).count,
  }
}

/** The next event on the stream but notifications (a direct message's mention comes with it). */
export const nextButNotifications = (stream: SseClient) =>
  stream.until((m) => m.event !== undefined && !m.event.startsWith('notification.'), 5000)

/** The usernames of a conversation's participants, sorted. */
export const namesIn = (conversation: Conversation | undefined) =>
  (conversation?.participants ?? []).map((person) => person.username).sort()
