import { Block, CryptographicKey, Follow, Image, Like, Person, Undo, Update, signRequest } from '@fedify/fedify'
import t from 'tap'
import { signup } from '../helpers/api.js'
import { eventually, serveActor, startInstance } from '../helpers/federation-instances.js'
import { call } from '../helpers/moderation.js'

/**
 * What a remote person does to themselves and their relations (DECISIONS §14), on whichever store the
 * suite runs: their `Update` of their own actor refreshes their name, bio, avatar and banner (an Update of
 * someone else's actor changes nothing); their `Block` of someone here ends their follow, and they can no
 * longer like that person's posts.
 */

interface ShownUser {
  displayName?: string
  bio: string
  avatarURL: string
  bannerURL?: string
}

await t.test('Update(Person) refreshes a remote profile, only from its own actor', async (t) => {
  const b = await startInstance(t, 1)
  const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })
  const mia = await serveActor(t, 2, 'mia')
  const eve = await serveActor(t, 3, 'eve')
  const post = async (from: typeof mia, activity: Follow | Update) => {
    const request = new Request(`${b.origin}/ap/inbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify(await activity.toJsonLd()),
    })
    return (await fetch(await signRequest(request, from.privateKey, from.keyId))).status
  }
  const bobActor = new URL(`${b.origin}/ap/users/${bob.user._id}`)
  t.equal(await post(mia, new Follow({ id: new URL(`${mia.id.href}#f`), actor: mia.id, object: bobActor })), 202)
  const handle = `mia@${mia.id.host}`
  const shown = () => call(b, bob.token, 'GET', `/api/users/${handle}`).then((r) => r.json<{ user: ShownUser }>().user)
  await eventually(
    () =>
      call(b, bob.token, 'GET', `/api/users/${bob.username}`).then((r) => r.json<{ user: { followers: unknown[] } }>()),
    (body) => body.user.followers.length === 1,
  )
  const personOf = (name: string) =>
    new Person({
      id: mia.id,
      preferredUsername: 'mia',
      name,
      summary: '<p>Painter of <b>boats</b></p>',
      inbox: new URL(`${mia.id.href}/inbox`),
      icon: new Image({ url: new URL('https://images.example/mia.png') }),
      image: new Image({ url: new URL('https://images.example/sea.png') }),
      publicKey: new CryptographicKey({ id: mia.keyId, owner: mia.id, publicKey: mia.publicKey }),
    })

  const update = new Update({ id: new URL(`${mia.id.href}#u`), actor: mia.id, object: personOf('Mia Sol') })
  t.equal(await post(mia, update), 202)
  const after = await eventually(shown, (user) => user.displayName === 'Mia Sol')
  t.match(
    after,
    {
      displayName: 'Mia Sol',
      bio: 'Painter of boats',
      avatarURL: 'https://images.example/mia.png',
      bannerURL: 'https://images.example/sea.png',
    },
    'her new name, bio, avatar and banner show on B',
  )
  // Eve's Update of Mia's actor is not Mia's to make: nothing changes.
  const forged = new Update({ id: new URL(`${eve.id.href}#u`), actor: eve.id, object: personOf('Not Mia') })
  t.equal(await post(eve, forged), 202, 'the inbox takes Eve’s signed Update')
  await new Promise((resolve) => setTimeout(resolve, 1500))
  t.equal((await shown()).displayName, 'Mia Sol', 'and Eve’s forged Update never applied')
})

await t.test('a remote Block ends their follow and their reach', async (t) => {
  const b = await startInstance(t, 1)
  const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })
  const mia = await serveActor(t, 2, 'mia')
  const send = async (activity: Follow | Block | Like | Undo) => {
    const request = new Request(`${b.origin}/ap/inbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify(await activity.toJsonLd()),
    })
    return (await fetch(await signRequest(request, mia.privateKey, mia.keyId))).status
  }
  const followers = () =>
    call(b, bob.token, 'GET', `/api/users/${bob.username}`).then(
      (r) => r.json<{ user: { followers: unknown[] } }>().user.followers.length,
    )
  const bobActor = new URL(`${b.origin}/ap/users/${bob.user._id}`)
  await send(new Follow({ id: new URL(`${mia.id.href}#f`), actor: mia.id, object: bobActor }))
  t.equal(await eventually(followers, (count) => count === 1), 1, 'Mia follows Bob')
  const written = await call(b, bob.token, 'POST', '/api/posts', { postData: { content: 'hello' } })
  const postId = written.json<{ post: { _id: string } }>().post._id
  t.equal(await send(new Block({ id: new URL(`${mia.id.href}#b`), actor: mia.id, object: bobActor })), 202)
  t.equal(await eventually(followers, (count) => count === 0), 0, 'her Block ends her follow')
  await send(
    new Like({ id: new URL(`${mia.id.href}#l`), actor: mia.id, object: new URL(`${b.origin}/ap/posts/${postId}`) }),
  )
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const likes = await call(b, bob.token, 'GET', `/api/posts/${postId}`)
  t.equal(
    likes.json<{ post: { likes: { likeCount: number } } }>().post.likes.likeCount,
    0,
    'and her like is refused across it',
  )
  const block = new Block({ id: new URL(`${mia.id.href}#b`), actor: mia.id, object: bobActor })
  await send(new Undo({ id: new URL(`${mia.id.href}#ub`), actor: mia.id, object: block }))
  await send(
    new Like({ id: new URL(`${mia.id.href}#l2`), actor: mia.id, object: new URL(`${b.origin}/ap/posts/${postId}`) }),
  )
  const liked = await eventually(
    () =>
      call(b, bob.token, 'GET', `/api/posts/${postId}`).then((r) =>
        r.json<{ post: { likes: { likeCount: number } } }>(),
      ),
    (body) => body.post.likes.likeCount === 1,
  )
  t.equal(liked.post.likes.likeCount, 1, 'her Undo lifts the block: her like counts again')
})
