import type { FastifyReply } from 'fastify'
import { PostSchema, type Post } from '../schemas/posts.js'
import { BoundedCache } from '../services/bounded-cache.js'
import { keptJson } from '../services/post-views.js'

const OPEN = Buffer.from('{"posts":[')
const COMMA = Buffer.from(',')
const CLOSE_LIST = Buffer.from(']')
const CLOSE = Buffer.from('}')

/** A page's whole body, kept with the posts' bytes it was put together from. */
interface KeptPage {
  parts: readonly Buffer[]
  body: Buffer
}

/**
 * Pages read again and again (the first page of a feed or of all posts) are sent as the same bytes; a
 * page is some 40 KB, so a few hundred are kept.
 */
const MAX_KEPT_PAGES = 256
const pages = new BoundedCache<string, KeptPage>(MAX_KEPT_PAGES)

const sameParts = (a: readonly Buffer[], b: readonly Buffer[]) =>
  a.length === b.length && a.every((part, i) => part === b[i])

/**
 * Sends `{ posts, nextCursor }` put together from each post's JSON rather than serialised whole on every
 * read: a page of posts is tens of kilobytes, and turning it into text and bytes was most of a feed
 * read's cost. Each post is serialised by PostSchema's own compiled serialiser, so, as with any response
 * schema, nothing outside the schema can reach the client. A page made of the very same post bytes as
 * one sent before, with the same cursor, is sent as that page's bytes.
 */
export function sendPostList(reply: FastifyReply, body: { posts: readonly Post[]; nextCursor?: string | null }) {
  // Kept with the view the services' cache handed out, made by this same serialiser from it.
  const encode = (view: Post) => {
    const serialize = reply.compileSerializationSchema(PostSchema) as (post: Post) => string
    return Buffer.from(serialize(view))
  }
  const parts = body.posts.map((post) => keptJson(post, encode))
  const key = `${body.nextCursor === undefined ? '-' : JSON.stringify(body.nextCursor)} ${body.posts.map((post) => post._id).join()}`
  const kept = pages.get(key)
  let bytes = kept && sameParts(kept.parts, parts) ? kept.body : undefined
  if (!bytes) {
    const all: Buffer[] = [OPEN]
    parts.forEach((part, i) => {
      if (i > 0) all.push(COMMA)
      all.push(part)
    })
    all.push(CLOSE_LIST)
    if (body.nextCursor !== undefined) all.push(Buffer.from(`,"nextCursor":${JSON.stringify(body.nextCursor)}`))
    all.push(CLOSE)
    bytes = Buffer.concat(all)
    pages.set(key, { parts, body: bytes })
  }
  return reply.type('application/json; charset=utf-8').send(bytes)
}
