import { randomUUID } from 'node:crypto'
import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Two instances on one schema (DECISIONS §13, §16): an upload made through one is posted through the
 * other, and an Idempotency-Key sent to both answers one status.
 */
await onPostgres(async () => {
  const { IMAGE_BYTES, buildApiApp, multipart, signup } = await import('../helpers/api.js')
  const { bearer, passwordToken, registerApp } = await import('../helpers/mastodon.js')

  const config = { publicUrl: 'https://chirp.example' }
  const a = await buildApiApp(t, { config })
  const b = await buildApiApp(t, { config, sharedSchema: a.schema as string })
  const client = await registerApp(a)
  const alice = await signup(a)
  const token = await passwordToken(a, client, alice.username, alice.password)
  const postCount = async () => {
    const res = await b.app.inject({ method: 'GET', url: `/api/posts/user/${alice.username}?limit=100` })
    return res.json<{ posts: unknown[] }>().posts.length
  }

  await t.test('an upload through one instance is read and posted through the other', async (t) => {
    const body = multipart('file', 'a.png', 'image/png', IMAGE_BYTES.png)
    const uploaded = await a.app.inject({
      method: 'POST',
      url: '/api/v1/media',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(token) },
    })
    t.equal(uploaded.statusCode, 200)
    const { id } = uploaded.json<{ id: string }>()
    const read = await b.app.inject({ method: 'GET', url: `/api/v1/media/${id}`, headers: bearer(token) })
    t.equal(read.statusCode, 200, 'B finds it')
    const posted = await b.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: bearer(token),
      payload: { status: 'posted through B', media_ids: [id] },
    })
    t.equal(posted.statusCode, 200)
    t.match(posted.json(), { media_attachments: [{ id }] })
  })

  await t.test('one Idempotency-Key sent through both instances makes one status', async (t) => {
    const before = await postCount()
    const send = (via: typeof a, key: string) =>
      via.app.inject({
        method: 'POST',
        url: '/api/v1/statuses',
        headers: { ...bearer(token), 'idempotency-key': key },
        payload: { status: `sent with ${key}` },
      })
    const key = randomUUID()
    const first = await send(a, key)
    const second = await send(b, key)
    t.equal(second.json<{ id: string }>().id, first.json<{ id: string }>().id, 'B answers what A made')
    const together = randomUUID()
    const both = await Promise.all([send(a, together), send(b, together)])
    t.same(
      both.map((res) => res.statusCode),
      [200, 200],
    )
    t.equal(both[0]?.json<{ id: string }>().id, both[1]?.json<{ id: string }>().id, 'at once, one status')
    t.equal(await postCount(), before + 2)
  })
})
