import t from 'tap'
import { buildApiApp, signup } from '../helpers/api.js'
import { call, postBy } from '../helpers/moderation.js'

/**
 * Discovery and actors (DECISIONS §14): with FEDERATION on and an https PUBLIC_URL, every person is an
 * ActivityPub actor found through WebFinger, with both keys and every collection; ids name the public
 * origin, never the Host or scheme a request came with.
 */
const ORIGIN = 'https://chirp.example'
const api = await buildApiApp(t, { config: { federation: true, publicUrl: ORIGIN } })
const AP = { accept: 'application/activity+json' }
const get = (url: string, headers: Record<string, string> = AP) =>
  api.app.inject({ method: 'GET', url, headers: { host: 'internal:3000', ...headers } })

const me = await signup(api, { firstName: 'Ada', lastName: 'Byron' })
await call(api, me.token, 'POST', '/api/users/edit', {
  displayName: 'Ada the First',
  bio: 'I write <b>notes</b> & posts.\nOn two lines.',
  bannerURL: 'https://images.example/banner.png',
})
const actorId = `${ORIGIN}/ap/users/${me.user._id}`

await t.test('WebFinger finds a person by acct: and names their actor and profile', async (t) => {
  const res = await get(`/.well-known/webfinger?resource=acct:${me.username}@chirp.example`, {})
  t.equal(res.statusCode, 200, res.body)
  t.match(res.headers['content-type'], /application\/jrd\+json/)
  const body = res.json<{
    subject: string
    aliases: string[]
    links: { rel: string; type?: string; href?: string }[]
  }>()
  t.equal(body.subject, `acct:${me.username}@chirp.example`)
  t.ok(
    body.links.some(
      (link) => link.rel === 'self' && link.type === 'application/activity+json' && link.href === actorId,
    ),
    'the self link is the actor, on the public origin',
  )
  t.ok(
    body.links.some((link) => link.rel === 'http://webfinger.net/rel/profile-page'),
    'a profile page link',
  )
  const byActor = await get(`/.well-known/webfinger?resource=${encodeURIComponent(actorId)}`, {})
  t.equal(byActor.statusCode, 200, 'the actor URL finds them too')
  const nobody = await get('/.well-known/webfinger?resource=acct:nobody_at_all@chirp.example', {})
  t.equal(nobody.statusCode, 404, 'an unknown name is 404')
  const elsewhere = await get(`/.well-known/webfinger?resource=acct:${me.username}@other.example`, {})
  t.equal(elsewhere.statusCode, 404, 'a name at another domain is 404')
})

await t.test('the actor is a Person with their profile, both keys and every collection', async (t) => {
  const res = await get(`/ap/users/${me.user._id}`)
  t.equal(res.statusCode, 200, res.body)
  t.match(res.headers['content-type'], /application\/activity\+json/)
  const actor = res.json<Record<string, unknown>>()
  t.ok(Array.isArray(actor['@context']), 'a JSON-LD context')
  t.match(actor, {
    id: actorId,
    type: 'Person',
    preferredUsername: me.username,
    name: 'Ada the First',
    summary: '<p>I write &#60;b&#62;notes&#60;/b&#62; &#38; posts.<br>On two lines.</p>',
    url: `${ORIGIN}/profile/${me.username}`,
    inbox: `${actorId}/inbox`,
    outbox: `${actorId}/outbox`,
    followers: `${actorId}/followers`,
    following: `${actorId}/following`,
    featured: `${actorId}/featured`,
    endpoints: { sharedInbox: `${ORIGIN}/ap/inbox` },
    image: { type: 'Image', url: 'https://images.example/banner.png' },
    manuallyApprovesFollowers: false,
  })
  const publicKey = actor.publicKey as { id: string; owner: string; publicKeyPem: string }
  t.equal(publicKey.owner, actorId, 'the RSA key is the actor’s')
  t.match(publicKey.publicKeyPem, /^-----BEGIN PUBLIC KEY-----/, 'as PEM')
  const methods = [actor.assertionMethod].flat() as { type: string; controller: string; publicKeyMultibase: string }[]
  t.equal(methods.length, 2, 'both keys as assertion methods')
  t.ok(methods.every((method) => method.type === 'Multikey' && method.controller === actorId))
  t.ok(
    methods.some((method) => method.publicKeyMultibase.startsWith('z6Mk')),
    'one of them Ed25519 (multibase z6Mk…)',
  )

  const again = (await get(`/ap/users/${me.user._id}`)).json<typeof actor>()
  t.strictSame(again.publicKey, actor.publicKey, 'the keys are made once and kept')
  t.strictSame(again.assertionMethod, actor.assertionMethod)
})

await t.test('an actor’s id names PUBLIC_URL whatever Host and scheme the request came with', async (t) => {
  const res = await get(`/ap/users/${me.user._id}`, { ...AP, host: 'evil.example', 'x-forwarded-proto': 'http' })
  t.equal(res.json<{ id: string }>().id, actorId)
})

await t.test('outbox, followers, following and featured are collections with counts', async (t) => {
  const fan = await signup(api)
  await call(api, fan.token, 'POST', `/api/users/follow/${me.user._id}`)
  await call(api, me.token, 'POST', `/api/users/follow/${fan.user._id}`)
  const posts: string[] = []
  for (let i = 0; i < 22; i++) posts.push(await postBy(api, me.token, `post number ${i}`))
  await call(api, me.token, 'POST', '/api/posts', { content: 'for my followers', visibility: 'followers' })
  await call(api, me.token, 'POST', `/api/posts/pin/${posts[3]}`)

  const outbox = (await get(`/ap/users/${me.user._id}/outbox`)).json<{
    type: string
    totalItems: number
    first: string
  }>()
  t.match(outbox, { type: 'OrderedCollection', totalItems: 22 }, 'only what a stranger may see is counted')
  const first = (await get(outbox.first.replace(ORIGIN, ''))).json<{
    type: string
    orderedItems: { type: string; object: { type: string; content: string; to: unknown; attributedTo: string } }[]
    next?: string
  }>()
  t.equal(first.type, 'OrderedCollectionPage')
  t.equal(first.orderedItems.length, 20, 'twenty a page')
  t.match(first.orderedItems[0], {
    type: 'Create',
    object: { type: 'Note', content: '<p>post number 21</p>', attributedTo: actorId },
  })
  // JSON-LD compacts the public collection to `as:Public`; both spell the same address.
  t.match(first.orderedItems[0]?.object.to, /^(as:Public|https:\/\/www\.w3\.org\/ns\/activitystreams#Public)$/)
  t.ok(first.next, 'a next page')
  const second = (await get((first.next ?? '').replace(ORIGIN, ''))).json<{ orderedItems: unknown[]; next?: string }>()
  t.equal(second.orderedItems.length, 2, 'the rest on the second')
  t.notOk(second.next, 'and no third')
  const forged = await get(`/ap/users/${me.user._id}/outbox?cursor=not-a-cursor`)
  t.equal(forged.statusCode, 404, 'a forged cursor is no page')

  const followers = (await get(`/ap/users/${me.user._id}/followers`)).json<{ totalItems: number; first: string }>()
  t.equal(followers.totalItems, 1)
  const page = (await get(followers.first.replace(ORIGIN, ''))).json<{ orderedItems: string[] }>()
  t.strictSame(page.orderedItems, [`${ORIGIN}/ap/users/${fan.user._id}`])
  const following = (await get(`/ap/users/${me.user._id}/following`)).json<{ totalItems: number }>()
  t.equal(following.totalItems, 1)

  const featured = (await get(`/ap/users/${me.user._id}/featured`)).json<{
    totalItems: number
    orderedItems: { id: string }[]
  }>()
  t.equal(featured.totalItems, 1)
  t.equal(featured.orderedItems[0]?.id, `${ORIGIN}/ap/posts/${posts[3]}`, 'the pinned post')
  const note = await get(`/ap/posts/${posts[3]}`)
  t.match(note.json(), { type: 'Note', id: `${ORIGIN}/ap/posts/${posts[3]}` }, 'which can be fetched')
})

await t.test('a post a stranger may not see has no note', async (t) => {
  const res = await call(api, me.token, 'POST', '/api/posts', { content: 'quiet', visibility: 'followers' })
  const id = res.json<{ post: { _id: string } }>().post._id
  const note = await get(`/ap/posts/${id}`)
  t.equal(note.statusCode, 404)
})

await t.test('NodeInfo 2.1 and host-meta say what the server is and where WebFinger is', async (t) => {
  const links = (await get('/.well-known/nodeinfo', {})).json<{ links: { rel: string; href: string }[] }>()
  t.match(links.links, [{ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1', href: `${ORIGIN}/nodeinfo/2.1` }])
  const info = await get('/nodeinfo/2.1', {})
  t.equal(info.statusCode, 200)
  t.match(info.json(), {
    version: '2.1',
    software: { name: 'chirp' },
    protocols: ['activitypub'],
    openRegistrations: true,
    usage: { users: { total: Number }, localPosts: Number },
  })
  const meta = await get('/.well-known/host-meta', {})
  t.equal(meta.statusCode, 200)
  t.match(meta.headers['content-type'], /application\/xrd\+xml/)
  t.match(meta.body, `template="${ORIGIN}/.well-known/webfinger?resource={uri}"`)
})

await t.test('a browser asking for a person or a post is sent to its page', async (t) => {
  const html = { accept: 'text/html' }
  const actor = await get(`/ap/users/${me.user._id}`, html)
  t.equal(actor.statusCode, 302)
  t.equal(actor.headers.location, `/profile/${me.username}`)
  const post = await postBy(api, me.token, 'a page of its own')
  const note = await get(`/ap/posts/${post}`, html)
  t.equal(note.statusCode, 302)
  t.equal(note.headers.location, `/post-detail/${post}`)
})
