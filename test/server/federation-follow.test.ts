import { Follow, signRequest } from '@fedify/fedify'
import t from 'tap'
import * as MSG from '../../common/messages.js'
import { LoginBodySchema, UserReplySchema } from '../../server/schemas/users.js'
import { expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { eventually, serveActor, serveHttps, startInstance, type Instance } from '../helpers/federation-instances.js'
import { call } from '../helpers/moderation.js'

/**
 * Follows both ways between two Chirp instances on this machine over https (DECISIONS §14), on whichever
 * store the suite runs: A's person finds and follows B's people, B's locked person rejects and accepts,
 * unfollows reach the other side, and both sides' lists, collections, notifications and events agree.
 */
const [a, b] = [await startInstance(t, 0), await startInstance(t, 1)]

interface Summary {
  _id: string
  username: string
}
interface ShownUser extends Summary {
  remote?: true
  url?: string
  displayName: string
  bio: string
  avatarURL: string
  locked: boolean
  requested?: true
  following: Summary[]
  followers: Summary[]
}

const AP = { accept: 'application/activity+json' }

async function userOn(instance: Instance, name: string, token?: string): Promise<ShownUser> {
  const res = await call(instance, token, 'GET', `/api/users/${encodeURIComponent(name)}`)
  if (res.statusCode !== 200) throw new Error(`${name} on ${instance.host}: ${res.statusCode} ${res.body}`)
  return res.json<{ user: ShownUser }>().user
}

const names = (people: Summary[]) => people.map((person) => person.username).sort()

/** The ids of an actor's followers or following collection, as other servers read it. */
async function collection(instance: Instance, userId: string, which: 'followers' | 'following') {
  const get = (url: string) => instance.app.inject({ method: 'GET', url, headers: AP })
  const head = (await get(`/ap/users/${userId}/${which}`)).json<{ totalItems: number; first?: string }>()
  if (!head.first) return { total: head.totalItems, items: [] }
  const page = (await get(head.first.replace(instance.origin, ''))).json<{ orderedItems?: string[] }>()
  return { total: head.totalItems, items: page.orderedItems ?? [] }
}

const ann = await signup(a, { firstName: 'Ann', lastName: 'Lee' })
const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })
const lucy = await signup(b, { firstName: 'Lucy', lastName: 'Locke' })
await call(b, bob.token, 'POST', '/api/users/edit', {
  displayName: 'Bob the Builder',
  bio: 'I build <b>things</b> & more.\nTwo lines.',
})
await call(b, lucy.token, 'POST', '/api/users/edit', { locked: true })
const handle = (person: SignedUp, instance: Instance) => `${person.username}@${instance.host}`
const actorOf = (person: SignedUp, instance: Instance) => `${instance.origin}/ap/users/${person.user._id}`

let bobThere: ShownUser
let lucyThere: ShownUser

await t.test('a remote person is found by user@domain and shown as a user', async (t) => {
  const res = await call(a, ann.token, 'GET', `/api/users/${handle(bob, b)}`)
  const { user } = expectOk(t, res, 200, UserReplySchema, 'the lookup')
  bobThere = user as ShownUser
  t.match(bobThere, {
    username: handle(bob, b),
    remote: true,
    url: `${b.origin}/profile/${bob.username}`,
    displayName: 'Bob the Builder',
    bio: 'I build <b>things</b> & more.\nTwo lines.',
    locked: false,
  })
  t.equal(bobThere.avatarURL.startsWith(`${b.origin}/avatars/`), true, 'their icon: B’s preset, from B')
  const again = await userOn(a, `@${handle(bob, b)}`)
  t.equal(again._id, bobThere._id, 'kept once: a second lookup (with a leading @) finds the same user')
  lucyThere = await userOn(a, handle(lucy, b), ann.token)
  t.equal(lucyThere.locked, true, 'a locked account is shown locked')

  expectError(t, await call(a, ann.token, 'GET', `/api/users/nobody_here@${b.host}`), 404, MSG.userNotFound)
  const unreachable = await call(a, ann.token, 'GET', '/api/users/someone@127.0.0.9:1')
  expectError(t, unreachable, 404, MSG.userNotFound, 'a server that does not answer')
  const local = await userOn(b, handle(bob, b))
  t.equal(local._id, bob.user._id, 'a server’s own handle is its own person, never a remote copy')
  t.notOk(local.remote)
})

await t.test('a remote person cannot sign in', async (t) => {
  const name = handle(bob, b)
  const res = await a.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: name, password: 'anything at all' },
  })
  // A handle longer than a sign-in name may be is refused by the body's own limit, before anyone is looked up.
  const tooLong = [...name].length > (LoginBodySchema.properties.username.maxLength ?? Infinity)
  t.equal(res.statusCode, tooLong ? 400 : 401, 'by their handle')
  const empty = await a.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: handle(bob, b), password: '' },
  })
  t.equal(empty.statusCode >= 400 && empty.statusCode < 500, true, 'not with an empty password either')
})

await t.test('following a remote person: a request until their Accept, then a follow on both sides', async (t) => {
  const res = await call(a, ann.token, 'POST', `/api/users/follow/${bobThere._id}`, {})
  t.equal(res.statusCode, 200, res.body)
  t.match(res.json(), { user: { _id: bobThere._id, requested: true }, requested: true }, 'a request first')
  const again = await call(a, ann.token, 'POST', `/api/users/follow/${bobThere._id}`, {})
  t.equal(again.statusCode, 400, 'asking twice is refused')

  const annOnA = await eventually(
    () => userOn(a, ann.username),
    (user) => user.following.some((person) => person._id === bobThere._id),
  )
  t.strictSame(names(annOnA.following), [handle(bob, b)], 'B accepted: Ann follows Bob on A')
  const bobOnB = await userOn(b, bob.username)
  t.strictSame(names(bobOnB.followers), [handle(ann, a)], 'and Bob has Ann of A as a follower on B')
  const requested = await userOn(a, handle(bob, b), ann.token)
  t.notOk(requested.requested, 'no request waits any more')

  const notified = await call(b, bob.token, 'GET', '/api/notifications')
  t.match(notified.json(), { notifications: [{ type: 'follow', actor: { username: handle(ann, a) } }] }, 'Bob is told')
  const told = await call(a, ann.token, 'GET', '/api/notifications')
  t.match(
    told.json(),
    { notifications: [{ type: 'follow', actor: { username: handle(bob, b) } }] },
    'Ann hears of the Accept',
  )

  const followers = await collection(b, bob.user._id, 'followers')
  t.strictSame(followers, { total: 1, items: [actorOf(ann, a)] }, 'B’s followers collection names A’s actor')
  const following = await collection(a, ann.user._id, 'following')
  t.strictSame(following, { total: 1, items: [actorOf(bob, b)] }, 'A’s following collection names B’s actor')
})

await t.test('a locked remote person rejects, then accepts', async (t) => {
  const res = await call(a, ann.token, 'POST', `/api/users/follow/${lucyThere._id}`, {})
  t.match(res.json(), { requested: true })
  const waiting = await eventually(
    () => call(b, lucy.token, 'GET', '/api/follow-requests').then((r) => r.json<{ users: ShownUser[] }>()),
    (body) => body.users.length === 1,
  )
  t.strictSame(names(waiting.users), [handle(ann, a)], 'Lucy sees Ann’s request on B')
  const remoteAnn = waiting.users[0]
  t.ok(remoteAnn?.remote, 'as a remote person')
  const notes = await call(b, lucy.token, 'GET', '/api/notifications')
  t.match(notes.json(), { notifications: [{ type: 'follow_request' }] }, 'and is told of it')

  const rejected = await call(b, lucy.token, 'POST', `/api/follow-requests/${remoteAnn?._id}/reject`, {})
  t.equal(rejected.statusCode, 200, rejected.body)
  const gone = await eventually(
    () => userOn(a, handle(lucy, b), ann.token),
    (user) => !user.requested,
  )
  t.notOk(gone.requested, 'the Reject reached A: no request waits')
  t.notOk((await userOn(a, ann.username)).following.some((person) => person._id === lucyThere._id))

  await call(a, ann.token, 'POST', `/api/users/follow/${lucyThere._id}`, {})
  await eventually(
    () => call(b, lucy.token, 'GET', '/api/follow-requests').then((r) => r.json<{ users: ShownUser[] }>()),
    (body) => body.users.length === 1,
  )
  const accepted = await call(b, lucy.token, 'POST', `/api/follow-requests/${remoteAnn?._id}/authorize`, {})
  t.equal(accepted.statusCode, 200, accepted.body)
  const following = await eventually(
    () => userOn(a, ann.username),
    (user) => user.following.some((person) => person._id === lucyThere._id),
  )
  t.strictSame(names(following.following), [handle(bob, b), handle(lucy, b)].sort(), 'Ann follows Lucy on A')
  t.strictSame(names((await userOn(b, lucy.username)).followers), [handle(ann, a)], 'and Lucy has her on B')
})

await t.test('unfollowing sends Undo: the follow ends on both sides', async (t) => {
  const res = await call(a, ann.token, 'POST', `/api/users/unfollow/${bobThere._id}`, {})
  t.equal(res.statusCode, 200, res.body)
  t.notOk(
    res.json<{ user: ShownUser }>().user.following.some((person) => person._id === bobThere._id),
    'gone on A at once',
  )
  const bobOnB = await eventually(
    () => userOn(b, bob.username),
    (user) => user.followers.length === 0,
  )
  t.strictSame(bobOnB.followers, [], 'and on B once the Undo arrived')
  const notified = await call(b, bob.token, 'GET', '/api/notifications')
  t.notOk(
    notified.json<{ notifications: { type: string }[] }>().notifications.some((n) => n.type === 'follow'),
    'the follow notification is taken back',
  )
  t.strictSame(await collection(b, bob.user._id, 'followers'), { total: 0, items: [] })
})

await t.test('the other way: B’s person follows A’s', async (t) => {
  const annThere = await userOn(b, handle(ann, a), bob.token)
  const res = await call(b, bob.token, 'POST', `/api/users/follow/${annThere._id}`, {})
  t.match(res.json(), { requested: true })
  const bobOnB = await eventually(
    () => userOn(b, bob.username),
    (user) => user.following.length === 1,
  )
  t.strictSame(names(bobOnB.following), [handle(ann, a)])
  const annOnA = await userOn(a, ann.username)
  t.strictSame(names(annOnA.followers), [handle(bob, b)], 'Ann’s followers on A include Bob of B')
  t.strictSame(await collection(a, ann.user._id, 'followers'), { total: 1, items: [actorOf(bob, b)] })
})

await t.test('unlocking accepts the remote requests waiting; a blocked person’s Follow is rejected', async (t) => {
  const kim = await signup(b, { firstName: 'Kim', lastName: 'Shut' })
  await call(b, kim.token, 'POST', '/api/users/edit', { locked: true })
  const kimThere = await userOn(a, handle(kim, b), ann.token)
  await call(a, ann.token, 'POST', `/api/users/follow/${kimThere._id}`, {})
  await eventually(
    () => call(b, kim.token, 'GET', '/api/follow-requests').then((r) => r.json<{ users: ShownUser[] }>()),
    (body) => body.users.length === 1,
  )
  await call(b, kim.token, 'POST', '/api/users/edit', { locked: false })
  const annOnA = await eventually(
    () => userOn(a, ann.username),
    (user) => user.following.some((person) => person._id === kimThere._id),
  )
  t.ok(
    annOnA.following.some((person) => person._id === kimThere._id),
    'the Accept sent on unlocking reached A',
  )

  const annOnB = await userOn(b, handle(ann, a), kim.token)
  const blocked = await call(b, kim.token, 'POST', `/api/users/block/${annOnB._id}`, {})
  t.equal(blocked.statusCode, 200, blocked.body)
  const cara = await signup(a, { firstName: 'Cara', lastName: 'Late' })
  const kimForCara = await userOn(a, handle(kim, b), cara.token)
  await call(a, cara.token, 'POST', `/api/users/follow/${kimForCara._id}`, {})
  await eventually(
    () => userOn(b, kim.username),
    (user) => user.followers.length > 0,
  )
  // Kim's Block reached A: there Ann no longer finds Kim, and may not ask to follow her again.
  const hidden = await eventually(
    () => call(a, ann.token, 'GET', `/api/users/${encodeURIComponent(handle(kim, b))}`).then((r) => r.statusCode),
    (status) => status === 404,
  )
  t.equal(hidden, 404, 'A keeps Kim’s block of Ann')
  const again = await call(a, ann.token, 'POST', `/api/users/follow/${kimThere._id}`, {})
  t.equal(again.statusCode, 403, 'Ann’s follow is refused on A')
  // A server that kept no block asks anyway: Kim's server answers Reject, and keeps nothing.
  const mallory = await serveActor(t, 2, 'mallory')
  const kimActor = new URL(actorOf(kim, b))
  const followKim = async (n: number) => {
    const follow = new Follow({ id: new URL(`${mallory.id.href}#f${n}`), actor: mallory.id, object: kimActor })
    const request = new Request(`${b.origin}/ap/inbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify(await follow.toJsonLd()),
    })
    return (await fetch(await signRequest(request, mallory.privateKey, mallory.keyId))).status
  }
  const malloryName = `mallory@${mallory.id.host}`
  await followKim(1)
  const followed = await eventually(
    () => userOn(b, kim.username),
    (user) => names(user.followers).includes(malloryName),
  )
  const malloryId = followed.followers.find((person) => person.username === malloryName)?._id
  await call(b, kim.token, 'POST', `/api/users/block/${malloryId}`, {})
  await eventually(
    () => userOn(b, kim.username),
    (user) => !names(user.followers).includes(malloryName),
  )
  t.equal(await followKim(2), 202, 'the inbox takes Mallory’s Follow')
  await new Promise((resolve) => setTimeout(resolve, 1000))
  t.strictSame(names((await userOn(b, kim.username)).followers), [handle(cara, a)], 'only Cara follows Kim')
})

await t.test('a Follow signed with another actor’s key, or unsigned: 401, and nothing changes', async (t) => {
  // Mallory, on a server of her own, signs a Follow of Ann that names Bob of B as its actor.
  const { keyId, privateKey } = await serveActor(t, 2, 'mallory')

  const before = await userOn(a, ann.username)
  const follow = new Follow({
    id: new URL(`${b.origin}/follows/forged`),
    actor: new URL(actorOf(bob, b)),
    object: new URL(actorOf(ann, a)),
  })
  const body = JSON.stringify(await follow.toJsonLd())
  const inbox = `${a.origin}/ap/users/${ann.user._id}/inbox`
  const unsigned = new Request(inbox, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json' },
    body,
  })
  const forged = await fetch(await signRequest(unsigned.clone(), privateKey, keyId))
  t.equal(forged.status, 401, 'signed with Mallory’s key for Bob: refused')
  const bare = await fetch(unsigned)
  t.equal(bare.status, 401, 'unsigned: refused')
  // Whatever was accepted would act in an inbox job: give one the time to have run.
  await new Promise((resolve) => setTimeout(resolve, 500))
  const after = await userOn(a, ann.username)
  t.strictSame(names(after.followers), names(before.followers), 'Ann’s followers are as they were')
  const nobody = await call(a, ann.token, 'GET', '/api/follow-requests')
  t.strictSame(nobody.json<{ users: unknown[] }>().users, [], 'and no request waits')
})

await t.test('what a remote actor says is shown as plain text, and only https images are kept', async (t) => {
  const pages = new Map<string, { type: string; body: string }>()
  const { origin } = await serveHttps(t, 3, (req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'https://x').pathname)
    if (page) res.writeHead(200, { 'content-type': page.type }).end(page.body)
    else res.writeHead(404).end()
  })
  const host = new URL(origin).host
  const id = `${origin}/users/eve`
  pages.set('/.well-known/webfinger', {
    type: 'application/jrd+json',
    body: JSON.stringify({
      subject: `acct:eve@${host}`,
      links: [{ rel: 'self', type: 'application/activity+json', href: id }],
    }),
  })
  pages.set('/users/eve', {
    type: 'application/activity+json',
    body: JSON.stringify({
      // As Mastodon writes it: the term is an extension of ActivityStreams'.
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        { manuallyApprovesFollowers: 'as:manuallyApprovesFollowers' },
      ],
      id,
      type: 'Person',
      preferredUsername: 'eve',
      name: 'Eve <img src=x onerror=alert(1)>',
      summary: '<p>Hello <script>steal()</script><b>there</b> &amp; you</p><p>second<br>line</p>',
      icon: { type: 'Image', url: 'http://insecure.example/eve.png' },
      image: { type: 'Image', url: `${origin}/banner.png` },
      inbox: `${id}/inbox`,
      manuallyApprovesFollowers: true,
    }),
  })
  const eve = await userOn(a, `eve@${host}`, ann.token)
  t.match(eve, {
    username: `eve@${host}`,
    remote: true,
    url: id,
    displayName: 'Eve',
    bio: 'Hello there & you\n\nsecond\nline',
    bannerURL: `${origin}/banner.png`,
    locked: true,
  })
  t.match(eve.avatarURL, /^\/avatars\//, 'an http icon is not shown: a preset avatar instead')
})
