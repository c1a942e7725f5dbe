import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Keyword filters of home across two instances on one schema (DECISIONS §15): a filter written through
 * one instance applies at once to the reader's stream on the other, and a stream resumed after a hidden
 * post replays without it.
 */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { openSse } = await import('../helpers/sse.js')
  type SseClient = Awaited<ReturnType<typeof openSse>>

  const a = await buildLiveApi(t)
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string })
  const [author, reader] = [await signup(a.api), await signup(a.api)]

  /** The contents of the post.created events up to the post `marker`, which is left out. */
  async function contentsUntil(client: SseClient, marker: string): Promise<string[]> {
    const seen: string[] = []
    for (;;) {
      const message = await a.nextEvent(client)
      if (message.event !== 'post.created') continue
      const { post } = JSON.parse(message.data ?? '{}') as { post: { _id: string; content: string } }
      if (post._id === marker) return seen
      seen.push(post.content)
    }
  }

  await t.test('a filter written through B hides the next post on the stream on A', async (t) => {
    const onA = await a.stream(t, reader)
    const res = await b.api.as(reader.token, {
      method: 'POST',
      url: '/api/v2/filters',
      payload: {
        title: 'Weather',
        context: ['home'],
        filter_action: 'hide',
        keywords_attributes: [{ keyword: 'rain' }],
      },
    })
    t.equal(res.statusCode, 200, 'the filter is made through B')
    await b.newPost(author, 'rain all day')
    await b.newPost(author, 'sunny later')
    const marker = await b.newPost(author, 'marker one')
    t.same(await contentsUntil(onA, marker._id), ['sunny later'], 'A leaves the hidden post out at once')
  })

  await t.test('a stream resumed on B after a hidden post replays without it', async (t) => {
    const onA = await a.stream(t, reader)
    const before = await a.newPost(author, 'before the break')
    const last = (await onA.until((message) => message.data?.includes(before._id) === true, 3000)).id as string
    onA.close()
    await a.newPost(author, 'more rain')
    await a.newPost(author, 'clear skies')
    const marker = await a.newPost(author, 'marker two')
    const ticket = (
      (await b.api.as(reader.token, { method: 'POST', url: '/api/events/ticket' })).json() as { ticket: string }
    ).ticket
    const port = (b.api.app.server.address() as { port: number }).port
    const resumed = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`, { 'last-event-id': last })
    t.teardown(() => resumed.close())
    t.same(await contentsUntil(resumed, marker._id), ['clear skies'], 'the replay leaves the hidden post out')
  })
})
