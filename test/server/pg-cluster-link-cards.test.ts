import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/** A link card made by the instance that saved the post reaches the streams of another instance. */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { html, ogPage, servePages } = await import('../helpers/https-pages.js')

  const pages = await servePages(t, { '/page': html(ogPage({ title: 'Across', description: 'Both instances' })) })
  const linkFetch = { ca: pages.ca, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }
  const config = { linkPreviewAllow: [`localhost:${pages.port}`] }
  const a = await buildLiveApi(t, { config, options: { linkFetch } })
  const b = await buildLiveApi(t, { config, options: { linkFetch }, sharedSchema: a.api.schema as string })
  const [author, reader] = [await signup(a.api), await signup(a.api)]

  await t.test('the card event, made on A, reaches a stream on B; a read on B shows the card', async (t) => {
    const onB = await b.stream(t, reader)
    const post = await a.newPost(author, `see ${pages.url('/page')}`)
    const message = await onB.until((m) => m.event === 'post.updated', 10_000)
    const data = JSON.parse(message.data ?? '{}') as { postId: string; card: { title: string } | null }
    t.equal(data.postId, post._id)
    t.equal(data.card?.title, 'Across')
    const read = await b.api.app.inject(`/api/posts/${post._id}`)
    t.match(read.json(), {
      post: { card: { url: pages.url('/page'), title: 'Across', description: 'Both instances' } },
    })
  })
})
