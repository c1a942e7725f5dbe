import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/** Two instances on one schema: a write through B raises A's write version when its event reaches A. */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  type Post = import('../../server/schemas/posts.js').Post

  const a = await buildLiveApi(t)
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string })
  const [author, reader, fan] = [await signup(a.api), await signup(a.api), await signup(a.api)]
  const post = await a.newPost(author, 'read through A, liked through B')

  await t.test("a like through B shows on A's next read once its event has reached A", async (t) => {
    const read = async () => {
      const res = await a.api.as(reader.token, { method: 'GET', url: `/api/posts?limit=20` })
      return (res.json() as { posts: Post[] }).posts.find((p) => p._id === post._id)?.likes.likeCount
    }
    t.equal(await read(), 0)
    t.equal(await read(), 0, 'read again, from the cache')
    const onA = await a.stream(t, reader)
    t.equal((await b.write(fan, 'POST', `/api/posts/like/${post._id}`)).statusCode, 201)
    t.match(await a.nextEvent(onA), { event: 'post.liked' }, 'the event reached A')
    t.equal(await read(), 1, 'and A reads the like')
  })
})
