import type { FastifyReply } from 'fastify'
import { PostSchema, type Post } from '../schemas/posts.js'

/**
 * Each post's JSON, kept with its view. Views the services hand out for unchanged posts are the same
 * frozen objects read after read (services/views.ts), so their bytes can be kept too.
 */
const encoded = new WeakMap<Post, Buffer>()

const OPEN = Buffer.from('{"posts":[')
const COMMA = Buffer.from(',')
const CLOSE_LIST = Buffer.from(']')
const CLOSE = Buffer.from('}')

/**
 * Sends `{ posts, nextCursor }` put together from each post's JSON rather than serialised whole on every
 * read: a page of posts is tens of kilobytes, and turning it into text and bytes was most of a feed
 * read's cost. Each post is serialised by PostSchema's own compiled serialiser, so, as with any response
 * schema, nothing outside the schema can reach the client.
 */
export function sendPostList(reply: FastifyReply, body: { posts: readonly Post[]; nextCursor?: string | null }) {
  const serialize = reply.compileSerializationSchema(PostSchema) as (post: Post) => string
  const parts: Buffer[] = [OPEN]
  body.posts.forEach((post, i) => {
    if (i > 0) parts.push(COMMA)
    let bytes = encoded.get(post)
    if (!bytes) {
      bytes = Buffer.from(serialize(post))
      // Only a frozen view is certain never to change under its cached bytes.
      if (Object.isFrozen(post)) encoded.set(post, bytes)
    }
    parts.push(bytes)
  })
  parts.push(CLOSE_LIST)
  if (body.nextCursor !== undefined) parts.push(Buffer.from(`,"nextCursor":${JSON.stringify(body.nextCursor)}`))
  parts.push(CLOSE)
  return reply.type('application/json; charset=utf-8').send(Buffer.concat(parts))
}
