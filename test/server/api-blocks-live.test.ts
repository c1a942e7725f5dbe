import t from 'tap'
import { MuteEventSchema, PostEventSchema, RelationEventSchema } from '../../server/schemas/events.js'
import { signup } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'

/** Live events across a block or a mute (docs/api-contract.md §11): each stream leaves out whom its reader does not see. */
const { api, write, newPost, stream, expectEvent } = await buildLiveApi(t)

await t.test(
  "a block tells the blocker's streams, and from then on neither side's stream carries the other",
  async (t) => {
    const [alice, bob, carol] = [await signup(api), await signup(api), await signup(api)]
    const hers = await stream(t, alice)
    const his = await stream(t, bob)
    const theirs = await stream(t, carol)
    await write(alice, 'POST', `/api/users/block/${bob.user._id}`)
    const blocked = await expectEvent(t, hers, 'user.blocked', RelationEventSchema)
    t.equal(blocked.user._id, bob.user._id, 'whom she blocked')
    const fromBob = await newPost(bob, 'his, after the block')
    const fromAlice = await newPost(alice, 'hers, after the block')
    const marker = await newPost(carol, 'a marker')
    t.equal(
      (await expectEvent(t, hers, 'post.created', PostEventSchema)).post._id,
      fromAlice._id,
      'she sees her own, not his',
    )
    t.equal((await expectEvent(t, hers, 'post.created', PostEventSchema)).post._id, marker._id, 'then the marker')
    t.equal((await expectEvent(t, his, 'post.created', PostEventSchema)).post._id, fromBob._id, 'he sees his own')
    t.equal(
      (await expectEvent(t, his, 'post.created', PostEventSchema)).post._id,
      marker._id,
      'not hers, nor the block',
    )
    const all = [
      await expectEvent(t, theirs, 'post.created', PostEventSchema),
      await expectEvent(t, theirs, 'post.created', PostEventSchema),
    ]
    t.strictSame(
      all.map((e) => e.post._id),
      [fromBob._id, fromAlice._id],
      'carol sees both, and nothing of the block',
    )
    await write(alice, 'POST', `/api/users/unblock/${bob.user._id}`)
    t.equal((await expectEvent(t, hers, 'user.unblocked', RelationEventSchema)).user._id, bob.user._id, 'the unblock')
  },
)

await t.test("a mute hides the muted person's events from the muter's streams only", async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  const hers = await stream(t, alice)
  const his = await stream(t, bob)
  await write(alice, 'POST', `/api/users/mute/${bob.user._id}`, { duration: 3600 })
  const muted = await expectEvent(t, hers, 'user.muted', MuteEventSchema)
  t.equal(muted.user._id, bob.user._id, 'whom she muted')
  t.ok(muted.until !== null, 'until when')
  const fromBob = await newPost(bob, 'muted words')
  const fromAlice = await newPost(alice, 'her words')
  t.equal((await expectEvent(t, hers, 'post.created', PostEventSchema)).post._id, fromAlice._id, 'his post skipped')
  t.equal((await expectEvent(t, his, 'post.created', PostEventSchema)).post._id, fromBob._id, 'he sees his')
  t.equal((await expectEvent(t, his, 'post.created', PostEventSchema)).post._id, fromAlice._id, 'and hers')
})

await t.test('a stream opened after a block leaves the other out from the start', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  await write(bob, 'POST', `/api/users/block/${alice.user._id}`)
  const hers = await stream(t, alice)
  await newPost(bob, 'not for her')
  const own = await newPost(alice, 'her own')
  t.equal((await expectEvent(t, hers, 'post.created', PostEventSchema)).post._id, own._id, 'only her own')
})

await t.test("a third person's repost carries no post of someone the reader blocks or mutes", async (t) => {
  const [reader, blocked, muted, third] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  await write(reader, 'POST', `/api/users/block/${blocked.user._id}`)
  await write(reader, 'POST', `/api/users/mute/${muted.user._id}`, {})
  const theirs = [await newPost(blocked, 'blocked words'), await newPost(muted, 'muted words')]
  const mine = await stream(t, reader)
  for (const post of theirs) await write(third, 'POST', `/api/posts/repost/${post._id}`)
  const marker = await newPost(third, 'a marker')
  t.equal((await expectEvent(t, mine, 'post.created', PostEventSchema)).post._id, marker._id, 'only the marker')
  t.notMatch(mine.text, /blocked words|muted words/, 'neither post reached the reader')
})
