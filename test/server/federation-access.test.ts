import t from 'tap'
import * as MSG from '../../common/messages.js'
import { buildApiApp, expectError, signup, storedText } from '../helpers/api.js'
import { buildModerationApp, call } from '../helpers/moderation.js'
import { readZip } from '../helpers/zip.js'

/**
 * Who has an actor (DECISIONS §14): nobody while FEDERATION is off; a suspended person or a signup
 * waiting for approval is not there (404), a deleted one is gone (410); and a person's private keys stay
 * in the store, sealed, never in their export.
 */
const ORIGIN = 'https://chirp.example'
const AP = { accept: 'application/activity+json' }

await t.test('with FEDERATION off, none of federation’s routes is there', async (t) => {
  const api = await buildApiApp(t)
  const me = await signup(api)
  for (const url of [
    `/.well-known/webfinger?resource=acct:${me.username}@localhost`,
    '/.well-known/nodeinfo',
    '/nodeinfo/2.1',
    '/.well-known/host-meta',
    `/ap/users/${me.user._id}`,
    `/ap/users/${me.user._id}/outbox`,
  ]) {
    const res = await api.app.inject({ method: 'GET', url, headers: AP })
    t.equal(res.statusCode, 404, `GET ${url}`)
  }
  const inbox = await api.app.inject({
    method: 'POST',
    url: '/ap/inbox',
    headers: { 'content-type': 'application/activity+json' },
    payload: '{}',
  })
  t.equal(inbox.statusCode, 404, 'POST /ap/inbox')
})

await t.test('a suspended person, or a signup waiting for approval, has no actor; a deleted one is gone', async (t) => {
  const { api, admin } = await buildModerationApp(t, { federation: true, publicUrl: ORIGIN, registration: 'approval' })
  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: AP })
  const finger = (username: string) =>
    api.app.inject({ method: 'GET', url: `/.well-known/webfinger?resource=acct:${username}@chirp.example` })

  const [suspended, leaver] = await Promise.all([signup(api), signup(api)])
  for (const person of [suspended, leaver])
    await call(api, admin, 'POST', `/api/admin/users/${person.user._id}/approve`)
  t.equal((await get(`/ap/users/${suspended.user._id}`)).statusCode, 200, 'an approved person has an actor')

  await call(api, admin, 'POST', `/api/admin/users/${suspended.user._id}/suspend`, { reason: 'spam' })
  for (const tail of ['', '/outbox', '/followers', '/following', '/featured']) {
    expectError(t, await get(`/ap/users/${suspended.user._id}${tail}`), 404, MSG.userNotFound, `suspended${tail}`)
  }
  t.equal((await finger(suspended.username)).statusCode, 404, 'WebFinger knows no suspended person')
  await call(api, admin, 'POST', `/api/admin/users/${suspended.user._id}/unsuspend`)
  t.equal((await get(`/ap/users/${suspended.user._id}`)).statusCode, 200, 'unsuspended, they are back')

  const login = await call(api, undefined, 'POST', '/api/auth/login', {
    username: leaver.username,
    password: leaver.password,
  })
  const token = login.json<{ encodedToken: string }>().encodedToken
  t.equal((await call(api, token, 'DELETE', '/api/account', { password: leaver.password })).statusCode, 200, 'deleted')
  for (const tail of ['', '/outbox', '/followers', '/following', '/featured']) {
    expectError(t, await get(`/ap/users/${leaver.user._id}${tail}`), 410, MSG.accountGone, `deleted${tail}`)
  }
  t.equal((await finger(leaver.username)).statusCode, 404, 'WebFinger knows no deleted person')

  const waiting = await signup(api)
  t.equal((await get(`/ap/users/${waiting.user._id}`)).statusCode, 404, 'a signup waiting for approval')
  t.equal((await finger(waiting.username)).statusCode, 404)
  t.equal((await get('/ap/users/00000000-0000-4000-8000-000000000000')).statusCode, 404, 'nobody at all')
  t.equal((await get('/ap/users/not-an-id')).statusCode, 404, 'an id that is none')
})

await t.test('private keys are kept sealed in the store and never leave in an export', async (t) => {
  const api = await buildApiApp(t, { config: { federation: true, publicUrl: ORIGIN } })
  const me = await signup(api)
  const actor = (await api.app.inject({ method: 'GET', url: `/ap/users/${me.user._id}`, headers: AP })).json<{
    publicKey: { publicKeyPem: string }
  }>()
  t.ok(actor.publicKey.publicKeyPem, 'the keys were made')

  const stored = await storedText(api)
  // A JWK's private member, however the store quotes it (JSON, escaped JSON, PostgreSQL's row text).
  t.notMatch(stored, /\\?"+d\\?"+\s*:/, 'no private JWK member in the clear in what the store keeps')
  t.match(stored, /\\?"+kty\\?"+\s*:/, 'while the public keys are there')
  t.notMatch(stored, /PRIVATE KEY/)

  const res = await call(api, me.token, 'GET', '/api/account/export')
  t.equal(res.statusCode, 200)
  const files = await readZip(res.rawPayload)
  const text = [...files.values()].map((bytes) => bytes.toString('utf8')).join('\n')
  t.ok(text.includes(me.username), 'the export is the account’s')
  for (const secret of [
    /PRIVATE KEY/,
    /"d"\s*:/,
    /actorKeys/,
    /rsaPrivate|ed25519Private/,
    /\bv1\.[\w-]+\.[\w-]+\.[\w-]+/,
  ]) {
    t.notMatch(text, secret, `no ${String(secret)} in the export`)
  }
})
