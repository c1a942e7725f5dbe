import { Delete, Follow } from '@fedify/fedify'
import t from 'tap'
import { signup } from '../helpers/api.js'
import { eventually, postSigned, serveActor, startInstance } from '../helpers/federation-instances.js'
import { followedPost, handleOf } from '../helpers/federation-pair.js'
import { call } from '../helpers/moderation.js'

/**
 * A person's account going (DECISIONS §14), on whichever store the suite runs: Bob of B follows Ann of A,
 * likes, reposts and comments on her post, and she follows him back; when he deletes his account, A hears
 * the Delete of his actor and everything of his there goes (his follows both ways, his like, repost and
 * comment, Ann's notifications of them). A Delete of an actor sent by another actor changes nothing.
 */

interface ShownPost {
  likes: { likeCount: number }
  repostCount: number
  commentCount: number
}

await t.test('a deleted account’s Delete(Person) removes them and theirs on the servers that knew them', async (t) => {
  const { a, b, ann, bob, post, there } = await followedPost(t, 'Anyone there?')
  const onA = (done: (shown: ShownPost) => boolean) =>
    eventually(
      () => call(a, ann.token, 'GET', `/api/posts/${post._id}`).then((r) => r.json<{ post: ShownPost }>().post),
      done,
    )
  const annOnA = () =>
    call(a, ann.token, 'GET', `/api/users/${ann.username}`).then(
      (r) => r.json<{ user: { followers: unknown[]; following: unknown[] } }>().user,
    )
  const kinds = async () =>
    (await call(a, ann.token, 'GET', '/api/notifications'))
      .json<{ notifications: { type: string }[] }>()
      .notifications.map((each) => each.type)

  await call(b, bob.token, 'POST', `/api/posts/like/${there._id}`, {})
  await call(b, bob.token, 'POST', `/api/posts/repost/${there._id}`, {})
  await call(b, bob.token, 'POST', `/api/comments/add/${there._id}`, { commentData: { text: 'Here!' } })
  const bobOnA = await call(a, ann.token, 'GET', `/api/users/${handleOf(bob, b)}`)
  const bobId = bobOnA.json<{ user: { _id: string } }>().user._id
  await call(a, ann.token, 'POST', `/api/users/follow/${bobId}`, {})
  const before = await onA(
    (shown) => shown.likes.likeCount === 1 && shown.repostCount === 1 && shown.commentCount === 1,
  )
  t.match(before, { likes: { likeCount: 1 }, repostCount: 1, commentCount: 1 }, 'A counts his like, repost, comment')
  const following = await eventually(annOnA, (user) => user.following.length === 1)
  t.equal(following.following.length, 1, 'and Ann follows him back')
  t.ok((await kinds()).includes('comment'), 'Ann hears of his comment')

  const gone = await call(b, bob.token, 'DELETE', '/api/account', { password: bob.password })
  t.equal(gone.statusCode, 200, 'Bob deletes his account on B')

  const after = await onA((shown) => shown.likes.likeCount === 0 && shown.repostCount === 0 && shown.commentCount === 0)
  t.match(after, { likes: { likeCount: 0 }, repostCount: 0, commentCount: 0 }, 'his like, repost and comment go on A')
  const ties = await eventually(annOnA, (user) => user.followers.length === 0 && user.following.length === 0)
  t.same([ties.followers, ties.following], [[], []], 'his follows both ways go')
  const left = await kinds()
  t.notOk(
    left.some((kind) => ['like', 'repost', 'comment', 'follow'].includes(kind)),
    'and Ann’s notifications of him',
  )
  t.equal((await call(a, ann.token, 'GET', `/api/users/${bobId}`)).statusCode, 404, 'A no longer has him')
})

await t.test('a Delete of someone else’s actor changes nothing', async (t) => {
  const b = await startInstance(t, 1)
  const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })
  const mia = await serveActor(t, 2, 'mia')
  const eve = await serveActor(t, 3, 'eve')
  const send = (from: typeof mia, activity: Parameters<typeof postSigned>[2]) => postSigned(b, from, activity)
  const followers = () =>
    call(b, bob.token, 'GET', `/api/users/${bob.username}`).then(
      (r) => r.json<{ user: { followers: unknown[] } }>().user.followers.length,
    )
  const bobActor = new URL(`${b.origin}/ap/users/${bob.user._id}`)
  await send(mia, new Follow({ id: new URL(`${mia.id.href}#f`), actor: mia.id, object: bobActor }))
  t.equal(await eventually(followers, (count) => count === 1), 1, 'Mia follows Bob')

  const forged = new Delete({ id: new URL(`${eve.id.href}#d`), actor: eve.id, object: mia.id })
  t.equal(await send(eve, forged), 202, 'the inbox takes Eve’s signed Delete of Mia')
  await new Promise((resolve) => setTimeout(resolve, 1500))
  t.equal(await followers(), 1, 'and Mia is still there, following Bob')
  const miaHere = await call(b, bob.token, 'GET', `/api/users/mia@${mia.id.host}`)
  t.equal(miaHere.statusCode, 200, 'her profile still shows')

  const own = new Delete({ id: new URL(`${mia.id.href}#d`), actor: mia.id, object: mia.id })
  t.equal(await send(mia, own), 202)
  t.equal(await eventually(followers, (count) => count === 0), 0, 'her own Delete removes her, and her follow')
})
