import t from 'tap'
import * as MSG from '../../common/messages.js'
import type { AuthorisedApp } from '../../server/services/client-apps.js'
import { signup } from '../helpers/api.js'
import { bearer, mastodonClient, passwordToken, registerApp } from '../helpers/mastodon.js'

/**
 * Settings lists the apps a person authorised through the Mastodon client API, and revokes them
 * (DECISIONS §13): a token given to an app is listed until it expires, is logged out, or every token of
 * the person is; revoking ends every token the app holds for the person, and no one else's. On whichever
 * store runs.
 */
const { api, client } = await mastodonClient(t)

const listOf = async (token: string) => {
  const res = await api.as(token, { method: 'GET', url: '/api/account/apps' })
  t.equal(res.statusCode, 200)
  return res.json<{ apps: AuthorisedApp[] }>().apps
}
const verify = async (accessToken: string) =>
  (await api.app.inject({ method: 'GET', url: '/api/v1/accounts/verify_credentials', headers: bearer(accessToken) }))
    .statusCode

await t.test('an app given a token is listed with its scopes; revoking it ends its tokens only', async (t) => {
  const person = await signup(api)
  t.same(await listOf(person.token), [], 'no app at first')
  const other = await registerApp(api, { scopes: 'read write' })
  const reading = await passwordToken(api, client, person.username, person.password, 'read')
  const writing = await passwordToken(api, client, person.username, person.password, 'write:statuses')
  const second = await passwordToken(api, other, person.username, person.password, 'read')

  const apps = await listOf(person.token)
  t.same(
    apps.map((app) => app.id),
    [other.clientId, client.clientId],
    'both apps, the most recently authorised first',
  )
  t.match(apps[1], { name: 'Test app', website: 'https://app.example' })
  t.same(apps[1]?.scopes, ['read', 'write:statuses'], 'the scopes of both its tokens')
  t.ok((apps[1]?.authorisedAt ?? '') <= (apps[1]?.lastGrantedAt ?? ''), 'first and latest grant')

  const stranger = await signup(api)
  const theirs = await passwordToken(api, client, stranger.username, stranger.password, 'read')
  const refused = await api.as(stranger.token, { method: 'DELETE', url: `/api/account/apps/${other.clientId}` })
  t.equal(refused.statusCode, 404, "another person's app is not theirs to revoke")
  t.match(refused.json(), { errors: [MSG.appNotAuthorised] })
  t.equal(await verify(second), 200, 'and it changed nothing')

  const revoked = await api.as(person.token, { method: 'DELETE', url: `/api/account/apps/${client.clientId}` })
  t.equal(revoked.statusCode, 200)
  t.equal(await verify(reading), 401, 'its first token ended')
  t.equal(await verify(writing), 401, 'and its second')
  t.equal(await verify(second), 200, "the other app's token still works")
  t.equal(await verify(theirs), 200, "and so does another person's token for the same app")
  t.same(
    (await listOf(person.token)).map((app) => app.id),
    [other.clientId],
    'only the other app is left',
  )
  const again = await api.as(person.token, { method: 'DELETE', url: `/api/account/apps/${client.clientId}` })
  t.equal(again.statusCode, 404, 'revoked already: nothing held')
})

await t.test('a token logged out, or every token ended, leaves the list', async (t) => {
  const person = await signup(api)
  const token = await passwordToken(api, client, person.username, person.password, 'read')
  const revoke = await api.app.inject({
    method: 'POST',
    url: '/oauth/revoke',
    payload: { client_id: client.clientId, client_secret: client.clientSecret, token },
  })
  t.equal(revoke.statusCode, 200)
  t.same(await listOf(person.token), [], 'the app revoked its own token')

  await passwordToken(api, client, person.username, person.password, 'read')
  t.equal((await listOf(person.token)).length, 1)
  const out = await api.as(person.token, { method: 'POST', url: '/api/auth/logout-all' })
  t.equal(out.statusCode, 200)
  const fresh = await api.login(person.username, person.password)
  t.same(await listOf(fresh), [], 'logged out everywhere: no app holds a token')
})

await t.test('the list and revoke need a signed-in person', async (t) => {
  t.equal((await api.app.inject({ method: 'GET', url: '/api/account/apps' })).statusCode, 401)
  t.equal((await api.app.inject({ method: 'DELETE', url: '/api/account/apps/x' })).statusCode, 401)
})
