import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/** A suspension made through instance B takes effect on instance A at once (DECISIONS §8). */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { seedWithStaff } = await import('../helpers/moderation.js')

  const a = await buildLiveApi(t, { options: { seed: seedWithStaff } })
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string, options: { seed: seedWithStaff } })
  const moderator = await b.api.login('theo_park')
  const [target, reader] = [await signup(a.api), await signup(a.api)]
  await a.write(reader, 'POST', `/api/users/follow/${target.user._id}`)
  const post = await a.newPost(target, 'posted before the suspension')
  const feedOnA = async () =>
    (
      (await a.api.as(reader.token, { method: 'GET', url: '/api/feed' })).json() as { posts: { _id: string }[] }
    ).posts.map((p) => p._id)

  await t.test('the suspended user’s stream on A closes and their posts vanish from A’s feed reads', async (t) => {
    t.ok((await feedOnA()).includes(post._id), 'in the reader’s feed on A before')
    const targetStream = await a.stream(t, target)
    const res = await b.api.as(moderator, {
      method: 'POST',
      url: `/api/admin/users/${target.user._id}/suspend`,
      payload: { reason: 'across instances' },
    })
    t.equal(res.statusCode, 200, 'suspended through B')
    await targetStream.ended
    t.pass('the stream open on A closed')
    t.notOk((await feedOnA()).includes(post._id), 'gone from the reader’s feed on A')
    const onA = await a.api.as(target.token, { method: 'GET', url: '/api/feed' })
    t.equal(onA.statusCode, 401, 'the token is refused on A too')
    const unsuspend = await b.api.as(moderator, {
      method: 'POST',
      url: `/api/admin/users/${target.user._id}/unsuspend`,
    })
    t.equal(unsuspend.statusCode, 200)
    // A suspension holds on A before B answers (the stream above closed); its lifting reaches A's reads
    // as A follows the log, moments later.
    let back = false
    for (let i = 0; i < 100 && !back; i++) {
      back = (await feedOnA()).includes(post._id)
      if (!back) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    t.ok(back, 'back in the feed on A once lifted')
  })
})
