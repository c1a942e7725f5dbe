import t from 'tap'
import { eventually } from '../helpers/federation-instances.js'
import { followedPost, handleOf } from '../helpers/federation-pair.js'
import { call } from '../helpers/moderation.js'

/**
 * A block made here of a person of another server (DECISIONS §14), on whichever store the suite runs: Ann
 * of A blocks Bob of B, who follows her; B hears her `Block`, so his follow of her ends there and he
 * cannot follow her again; her unblock sends its `Undo`, and then he can.
 */

await t.test('blocking a remote person sends Block, and unblocking its Undo', async (t) => {
  const { a, b, ann, bob } = await followedPost(t, 'Hello')
  const bobOnA = await call(a, ann.token, 'GET', `/api/users/${handleOf(bob, b)}`)
  const bobId = bobOnA.json<{ user: { _id: string } }>().user._id
  const annOnB = await call(b, bob.token, 'GET', `/api/users/${handleOf(ann, a)}`)
  const annId = annOnB.json<{ user: { _id: string } }>().user._id
  const following = () =>
    call(b, bob.token, 'GET', `/api/users/${bob.username}`).then(
      (r) => r.json<{ user: { following: unknown[] } }>().user.following.length,
    )
  t.equal(await following(), 1, 'Bob follows Ann')

  t.equal((await call(a, ann.token, 'POST', `/api/users/block/${bobId}`, {})).statusCode, 200, 'Ann blocks Bob on A')
  t.equal(await eventually(following, (count) => count === 0), 0, 'B hears her Block: his follow of her ends')
  const refused = await call(b, bob.token, 'POST', `/api/users/follow/${annId}`, {})
  t.ok(refused.statusCode >= 400, `and he cannot follow her again (${refused.statusCode})`)

  t.equal((await call(a, ann.token, 'POST', `/api/users/unblock/${bobId}`, {})).statusCode, 200, 'Ann unblocks him')
  const again = await eventually(
    () => call(b, bob.token, 'POST', `/api/users/follow/${annId}`, {}).then((r) => r.statusCode),
    (status) => status === 200,
  )
  t.equal(again, 200, 'B hears her Undo: he may follow her again')
  t.equal(await eventually(following, (count) => count === 1), 1, 'and does, once A accepts')
})
