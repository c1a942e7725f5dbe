import type { FastifyReply } from 'fastify'
import { PostSchema, type Post } from '../schemas/posts.js'

const OPEN = Buffer.from('{"posts":[')
const COMMA = Buffer.from(',')
const CLOSE_LIST = Buffer.from(']')
const CLOSE = Buffer.from('}')

/**
 * Sends `{ posts, nextCursor }` put together from each post's JSON rather than serialised whole on every
 * read: a page of posts is tens of kilobytes, and turning it into text and bytes was most of a feed
 * read's cost. Each post is serialised by PostSchema's own compiled serialiser, so, as with any response
 * schema, nothing outside the schema can reach the client; a view the services kept (frozen) is
 * serialised once, by the app's read cache.
 */
export function sendPostList(reply: FastifyReply, body: { posts: readonly Post[]; nextCursor?: string | null }) {
  const serialize = reply.compileSerializationSchema(PostSchema) as (post: Post) => string
  const encode = (view: Post) => Buffer.from(serialize(view))
  const { readCache } = reply.server
  const all: Buffer[] = [OPEN]
  body.posts.forEach((post, i) => {
    if (i > 0) all.push(COMMA)
    all.push(readCache.json(post, encode))
  })
  all.push(CLOSE_LIST)
  if (body.nextCursor !== undefined) all.push(Buffer.from(`,"nextCursor":${JSON.stringify(body.nextCursor)}`))
  all.push(CLOSE)
  return reply.type('application/json; charset=utf-8').send(Buffer.concat(all))
}
