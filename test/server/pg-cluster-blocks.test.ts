import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/** Two instances on one schema: a block or a mute made through one changes what the other's open streams deliver. */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { PostEventSchema } = await import('../../server/schemas/events.js')

  const a = await buildLiveApi(t)
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string })

  await t.test("a block made through B ends the blocked person's posts on the blocker's stream on A", async (t) => {
    const [alice, bob] = [await signup(a.api), await signup(a.api)]
    const hersOnA = await a.stream(t, alice)
    const hisOnA = await a.stream(t, bob)
    const before = await b.newPost(bob, 'before the block')
    t.equal((await a.expectEvent(t, hersOnA, 'post.created', PostEventSchema)).post._id, before._id, 'seen before')
    t.equal((await a.expectEvent(t, hisOnA, 'post.created', PostEventSchema)).post._id, before._id, 'by him too')
    t.equal((await b.write(alice, 'POST', `/api/users/block/${bob.user._id}`)).statusCode, 200, 'blocked through B')
    t.equal((await a.nextEvent(hersOnA)).event, 'user.blocked', 'A tells her streams')
    await b.newPost(bob, 'after the block, through B')
    await a.newPost(bob, 'after the block, through A')
    const mine = await b.newPost(alice, 'her own, through B')
    t.equal(
      (await a.expectEvent(t, hersOnA, 'post.created', PostEventSchema)).post._id,
      mine._id,
      'his are skipped on A',
    )
    const his = [await a.nextEvent(hisOnA), await a.nextEvent(hisOnA)]
    t.strictSame(
      his.map((m) => m.event),
      ['post.created', 'post.created'],
      'he sees his own two',
    )
    t.notMatch(hisOnA.text, /her own, through B/, 'and not hers')
  })

  await t.test("a mute made through A ends the muted person's posts on the muter's stream on B", async (t) => {
    const [alice, bob] = [await signup(a.api), await signup(a.api)]
    const hersOnB = await b.stream(t, alice)
    t.equal((await a.write(alice, 'POST', `/api/users/mute/${bob.user._id}`, {})).statusCode, 200, 'muted through A')
    t.equal((await b.nextEvent(hersOnB)).event, 'user.muted', 'B tells her streams')
    await a.newPost(bob, 'muted, through A')
    const mine = await a.newPost(alice, 'hers')
    t.equal((await b.expectEvent(t, hersOnB, 'post.created', PostEventSchema)).post._id, mine._id, 'his skipped on B')
  })

  await t.test(
    "a repost through B of a post by someone the reader blocks reaches none of the reader's streams on A",
    async (t) => {
      const [reader, blocked, third] = [await signup(a.api), await signup(a.api), await signup(a.api)]
      await a.write(reader, 'POST', `/api/users/block/${blocked.user._id}`)
      const post = await a.newPost(blocked, 'blocked words, reposted')
      const mine = await a.stream(t, reader)
      await b.write(third, 'POST', `/api/posts/repost/${post._id}`)
      const marker = await b.newPost(third, 'a marker')
      t.equal((await a.expectEvent(t, mine, 'post.created', PostEventSchema)).post._id, marker._id, 'only the marker')
      t.notMatch(mine.text, /blocked words/, 'the post did not reach the reader')
    },
  )
})
