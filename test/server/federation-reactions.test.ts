import { Like, Undo, signRequest } from '@fedify/fedify'
import t from 'tap'
import { eventually, serveActor } from '../helpers/federation-instances.js'
import { followedPost } from '../helpers/federation-pair.js'
import { call } from '../helpers/moderation.js'

/**
 * Likes and boosts between two Chirp instances over https (DECISIONS §14), on whichever store the suite
 * runs: Bob of B likes and reposts Ann of A's post; A counts them, Ann hears of them, and Bob's Undo takes
 * them back. An Undo of Bob's like by someone else changes nothing.
 */

interface ShownPost {
  likes: { likeCount: number }
  repostCount: number
}

await t.test('likes and boosts go to the post’s server, and their undoing', async (t) => {
  const { a, b, ann, bob, post, there } = await followedPost(t, 'Like me')
  const onA = (done: (shown: ShownPost) => boolean) =>
    eventually(
      () => call(a, ann.token, 'GET', `/api/posts/${post._id}`).then((r) => r.json<{ post: ShownPost }>().post),
      done,
    )
  const kinds = async () =>
    (await call(a, ann.token, 'GET', '/api/notifications'))
      .json<{ notifications: { type: string }[] }>()
      .notifications.map((each) => each.type)

  t.ok((await call(b, bob.token, 'POST', `/api/posts/like/${there._id}`, {})).statusCode < 300, 'Bob likes it on B')
  t.equal((await onA((shown) => shown.likes.likeCount === 1)).likes.likeCount, 1, 'Bob’s like is counted on A')
  t.ok((await kinds()).includes('like'), 'and Ann hears of it')
  t.ok((await call(b, bob.token, 'POST', `/api/posts/dislike/${there._id}`, {})).statusCode < 300, 'and unlikes it')
  t.equal((await onA((shown) => shown.likes.likeCount === 0)).likes.likeCount, 0, 'his Undo takes it back')

  t.ok((await call(b, bob.token, 'POST', `/api/posts/repost/${there._id}`, {})).statusCode < 300, 'Bob reposts it on B')
  t.equal((await onA((shown) => shown.repostCount === 1)).repostCount, 1, 'Bob’s boost is counted on A')
  t.ok((await kinds()).includes('repost'), 'and Ann hears of it')
  t.ok(
    (await call(b, bob.token, 'POST', `/api/posts/unrepost/${there._id}`, {})).statusCode < 300,
    'and takes his repost back',
  )
  t.equal((await onA((shown) => shown.repostCount === 0)).repostCount, 0, 'his Undo takes it back')

  // Only the one who liked undoes the like: Mallory's Undo of Bob's like changes nothing.
  await call(b, bob.token, 'POST', `/api/posts/like/${there._id}`, {})
  await onA((shown) => shown.likes.likeCount === 1)
  const { id: mallory, keyId, privateKey } = await serveActor(t, 2, 'mallory')
  const bobActor = new URL(`${b.origin}/ap/users/${bob.user._id}`)
  const forged = new Undo({
    id: new URL(`${mallory.href}#undos/1`),
    actor: mallory,
    object: new Like({ actor: bobActor, object: new URL(`${a.origin}/ap/posts/${post._id}`) }),
  })
  const request = new Request(`${a.origin}/ap/inbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json' },
    body: JSON.stringify(await forged.toJsonLd()),
  })
  t.equal((await fetch(await signRequest(request, privateKey, keyId))).status, 202, 'the inbox takes it')
  await new Promise((resolve) => setTimeout(resolve, 1500))
  t.equal((await onA(() => true)).likes.likeCount, 1, 'but Bob’s like stays')
})
