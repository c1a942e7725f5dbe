import { CryptographicKey, Follow, Image, Person, Update, signRequest } from '@fedify/fedify'
import t from 'tap'
import { signup } from '../helpers/api.js'
import { eventually, serveActor, startInstance } from '../helpers/federation-instances.js'
import { call } from '../helpers/moderation.js'

/**
 * A remote person's `Update` of their own actor (DECISIONS §14), on whichever store the suite runs: Chirp
 * keeps their new name, bio, avatar and banner; an Update of someone else's actor changes nothing.
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
