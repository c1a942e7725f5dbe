import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Mastodon's streaming API across two instances of one PostgreSQL schema (DECISIONS §13): a socket on one
 * hears what is written through the other, through the shared event log, with the reader's view kept.
 */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { passwordToken, registerApp } = await import('../helpers/mastodon.js')
  const { socketOf } = await import('../helpers/mastodon-streaming.js')
  type Status = import('../../server/mastodon/status-schemas.js').Status
  type StreamMessage = import('../helpers/mastodon-streaming.js').StreamMessage

  const config = { publicUrl: 'https://chirp.example' }
  const a = await buildLiveApi(t, { config })
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string, config })
  const client = await registerApp(a.api)
  const person = async () => {
    const signed = await signup(a.api)
    return { ...signed, bearer: await passwordToken(a.api, client, signed.username, signed.password) }
  }
  const post = async (who: Awaited<ReturnType<typeof person>>, status: string, visibility = 'public') => {
    const res = await a.api.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: { authorization: `Bearer ${who.bearer}` },
      payload: { status, visibility },
    })
    if (res.statusCode !== 200) throw new Error(`post: ${res.statusCode} ${res.body}`)
    return res.json<Status>()
  }
  const isUpdate = (message: StreamMessage) => message.event === 'update'
  const idIn = (message: StreamMessage) => (JSON.parse(message.payload ?? '{}') as Status).id

  const [reader, author, stranger] = [await person(), await person(), await person()]
  await a.write(reader, 'POST', `/api/users/follow/${author.user._id}`)

  await t.test('a write on one instance reaches a socket on the other', async (t) => {
    const ws = await socketOf(t, b.api.app, { query: `access_token=${reader.bearer}&stream=user` })
    const status = await post(author, 'written on A')
    const message = await ws.until(isUpdate)
    t.same(message.stream, ['user'])
    t.equal(idIn(message), status.id, 'the status, as the REST API gives it')
    await a.api.app.inject({
      method: 'DELETE',
      url: `/api/v1/statuses/${status.id}`,
      headers: { authorization: `Bearer ${author.bearer}` },
    })
    t.equal((await ws.until((message) => message.event === 'delete')).payload, status.id, 'and its deletion')
  })

  await t.test("the other instance keeps the reader's view: a follower-only post for followers alone", async (t) => {
    const follower = await socketOf(t, b.api.app, { query: `access_token=${reader.bearer}&stream=user` })
    const other = await socketOf(t, b.api.app, { query: `access_token=${stranger.bearer}&stream=public` })
    const hidden = await post(author, 'followers only', 'private')
    const marker = await post(author, 'a marker')
    t.equal(idIn(await follower.until(isUpdate)), hidden.id, 'the follower on B gets it')
    t.equal(idIn(await other.until(isUpdate)), marker.id, 'the stranger on B gets the marker first')
  })

  await t.test('a logout on one instance closes the socket on the other', async (t) => {
    const leaving = await person()
    const ws = await socketOf(t, b.api.app, { query: `access_token=${leaving.bearer}&stream=user` })
    const res = await a.api.as(leaving.token, { method: 'POST', url: '/api/auth/logout-all' })
    t.equal(res.statusCode, 200)
    await ws.closed
    t.pass('closed on B')
  })
})
