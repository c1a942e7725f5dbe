import type { FastifyReply } from 'fastify'
import { PostSchema, type Post } from '../schemas/posts.js'
import { keptJson } from '../services/views.js'

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
    // Kept with the view the services' cache handed out, made by this same serialiser from it.
    parts.push(keptJson(post, (view) => Buffer.from(serialize(view))))
  })
  parts.push(CLOSE_LIST)
  if (body.nextCursor !== undefined) parts.push(Buffer.from(`,"nextCursor":${JSON.stringify(body.nextCursor)}`))
  parts.push(CLOSE)
  return reply.type('application/json; charset=utf-8').send(Buffer.concat(parts))
}
