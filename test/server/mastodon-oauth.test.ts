import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { ApplicationSchema, CredentialAccountSchema, TokenSchema } from '../../server/mastodon/schemas.js'
import { totpCode } from '../../server/services/totp.js'
import { buildApiApp, signup } from '../helpers/api.js'
import { seedWithStaff } from '../helpers/moderation.js'
import { loose } from '../helpers/rate-limits.js'
import {
  OOB,
  REDIRECT,
  authorizeForm,
  bearer,
  codeOf,
  passwordToken,
  pkce,
  registerApp,
  tokenRequest,
} from '../helpers/mastodon.js'

/**
 * OAuth 2 of the Mastodon client API (DECISIONS §13): apps, the sign-in page, the three grants, scopes and
 * revocation; a token is a Chirp session, so what ends sessions ends it. On whichever store runs.
 */
/** What these answers carry, as far as the tests read them. */
interface Reply {
  [field: string]: unknown
  error?: string
  access_token: string
  client_id: string
  client_secret: string
  username?: string
  scopes_supported: string[]
}

const STEP = 30_000
let clock = Math.ceil(Date.now() / STEP) * STEP + 1_000
const api = await buildApiApp(t, { options: { seed: seedWithStaff, now: () => new Date(clock) } })
const verify = (token: string) =>
  api.app.inject({ method: 'GET', url: '/api/v1/accounts/verify_credentials', headers: bearer(token) })

await t.test('an app registers with JSON or a form, and its secret is shown once', async (t) => {
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `client_name=Form+app&redirect_uris[]=${encodeURIComponent(REDIRECT)}&redirect_uris[]=${encodeURIComponent(OOB)}&scopes=read+write:statuses`,
  })
  t.equal(res.statusCode, 200)
  const body = res.json<Reply>()
  t.ok(Value.Check(ApplicationSchema, body), 'an Application')
  t.match(body, { name: 'Form app', scopes: ['read', 'write:statuses'], redirect_uris: [REDIRECT, OOB], website: null })
  t.equal(body.redirect_uri, `${REDIRECT}\n${OOB}`)
  t.type(body.client_secret, 'string')
  t.equal(body.client_secret_expires_at, 0)
  const again = await api.app.inject({
    method: 'GET',
    url: '/api/v1/apps/verify_credentials',
    headers: bearer(
      await passwordToken(
        api,
        { clientId: body.client_id, clientSecret: body.client_secret },
        'noah_kim',
        'noahpassword',
        'read',
      ),
    ),
  })
  t.equal(again.statusCode, 200)
  t.notOk('client_secret' in again.json<Reply>(), 'never shown again')
})

await t.test('a registration with an unknown scope or a bad redirect is refused with 422', async (t) => {
  for (const payload of [
    { client_name: 'x', redirect_uris: REDIRECT, scopes: 'read delete-everything' },
    { client_name: 'x', redirect_uris: 'javascript:alert(1)' },
    { client_name: 'x', redirect_uris: 'not a url' },
    { client_name: ' ', redirect_uris: REDIRECT },
  ]) {
    const res = await api.app.inject({ method: 'POST', url: '/api/v1/apps', payload })
    t.equal(res.statusCode, 422, JSON.stringify(payload))
    t.type(res.json<Reply>().error, 'string')
  }
})

await t.test('the password grant takes a username or an e-mail address and gives a working token', async (t) => {
  const app = await registerApp(api)
  const me = await signup(api)
  const res = await tokenRequest(api, {
    grant_type: 'password',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    username: me.username,
    password: me.password,
    scope: 'read write',
  })
  t.equal(res.statusCode, 200)
  t.ok(Value.Check(TokenSchema, res.json<Reply>()), 'a Token')
  t.match(res.json<Reply>(), { token_type: 'Bearer', scope: 'read write' })
  const account = await verify(res.json<Reply>().access_token)
  t.equal(account.statusCode, 200)
  t.ok(Value.Check(CredentialAccountSchema, account.json<Reply>()), 'a CredentialAccount')
  t.equal(account.json<Reply>().username, me.username)
  const byEmail = await passwordToken(api, app, `${me.username.toLowerCase()}@example.com`, me.password)
  t.equal((await verify(byEmail)).json<Reply>().id, me.user._id, 'by e-mail, the same person')
})

await t.test('a wrong password, an unknown person or a wrong secret gets no token', async (t) => {
  const app = await registerApp(api)
  const ask = (fields: Record<string, string>) =>
    tokenRequest(api, { grant_type: 'password', client_id: app.clientId, client_secret: app.clientSecret, ...fields })
  const wrong = await ask({ username: 'noah_kim', password: 'not it' })
  t.equal(wrong.statusCode, 400)
  t.equal(wrong.json<Reply>().error, 'invalid_grant')
  t.equal((await ask({ username: 'nobody-here', password: 'x' })).json<Reply>().error, 'invalid_grant')
  t.equal((await ask({ username: 'nobody@example.com', password: 'x' })).json<Reply>().error, 'invalid_grant')
  const secret = await tokenRequest(api, {
    grant_type: 'password',
    client_id: app.clientId,
    client_secret: 'wrong',
    username: 'noah_kim',
    password: 'noahpassword',
  })
  t.equal(secret.statusCode, 401)
  t.equal(secret.json<Reply>().error, 'invalid_client')
  const grant = await tokenRequest(api, {
    grant_type: 'implicit',
    client_id: app.clientId,
    client_secret: app.clientSecret,
  })
  t.equal(grant.json<Reply>().error, 'unsupported_grant_type')
  const scope = await ask({ username: 'noah_kim', password: 'noahpassword', scope: 'admin:read' })
  t.equal(scope.json<Reply>().error, 'invalid_scope')
})

await t.test('an app asks for no more than it registered', async (t) => {
  const app = await registerApp(api, { scopes: 'read' })
  const res = await tokenRequest(api, {
    grant_type: 'password',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    username: 'noah_kim',
    password: 'noahpassword',
    scope: 'read write',
  })
  t.equal(res.json<Reply>().error, 'invalid_scope')
})

await t.test('client credentials give a token of the app alone, which acts for nobody', async (t) => {
  const app = await registerApp(api)
  const res = await tokenRequest(api, {
    grant_type: 'client_credentials',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope: 'read',
  })
  t.equal(res.statusCode, 200)
  const token = res.json<Reply>().access_token as string
  const own = await api.app.inject({ method: 'GET', url: '/api/v1/apps/verify_credentials', headers: bearer(token) })
  t.equal(own.statusCode, 200)
  t.equal(own.json<Reply>().name, 'Test app')
  t.equal((await verify(token)).statusCode, 401, 'no person')
  t.equal((await api.app.inject({ method: 'GET', url: '/api/feed', headers: bearer(token) })).statusCode, 401)
})

await t.test('the sign-in page: an app, its scopes, and a policy that lets its form reach the app', async (t) => {
  const app = await registerApp(api)
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: REDIRECT,
    scope: 'read write',
  })
  const res = await api.app.inject({ method: 'GET', url: `/oauth/authorize?${query}` })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /text\/html/)
  t.match(res.body, /Test app/)
  t.match(res.body, /name="password"/)
  t.match(res.body, /name="otp"/)
  t.match(res.headers['content-security-policy'], /form-action 'self' https:\/\/app\.example/)
  t.notMatch(res.headers['content-security-policy'], /script-src/, 'no script at all')
  const stranger = new URLSearchParams({ client_id: app.clientId, redirect_uri: 'https://evil.example/' })
  const refused = await api.app.inject({ method: 'GET', url: `/oauth/authorize?${stranger}` })
  t.equal(refused.statusCode, 400, 'a redirect the app never registered')
  t.equal(refused.headers.location, undefined, 'and no redirect there')
  const unknown = await api.app.inject({
    method: 'GET',
    url: `/oauth/authorize?client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}`,
  })
  t.equal(unknown.statusCode, 400)
  const escaped = await api.app.inject({
    method: 'GET',
    url: `/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, redirect_uri: REDIRECT, state: '"><script>x</script>' })}`,
  })
  t.notMatch(escaped.body, /<script>x/, 'what the request carries is escaped')
})

await t.test('sign in and approve: a code for the redirect, traded once with its PKCE verifier', async (t) => {
  const app = await registerApp(api)
  const { verifier, challenge } = pkce()
  const request = {
    client_id: app.clientId,
    redirect_uri: REDIRECT,
    scope: 'read',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }
  const approved = await authorizeForm(api, {
    ...request,
    username: 'noah_kim',
    password: 'noahpassword',
    decision: 'approve',
  })
  t.equal(approved.statusCode, 302)
  const location = new URL(approved.headers.location as string)
  t.equal(`${location.origin}${location.pathname}`, REDIRECT)
  t.equal(location.searchParams.get('state'), 'xyz')
  const code = codeOf(approved)
  const trade = (fields: Record<string, string>) =>
    tokenRequest(api, {
      grant_type: 'authorization_code',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      redirect_uri: REDIRECT,
      code,
      ...fields,
    })
  const wrong = await trade({ code_verifier: 'not-the-verifier' })
  t.equal(wrong.json<Reply>().error, 'invalid_grant', 'a wrong verifier')
  const again = await authorizeForm(api, {
    ...request,
    username: 'noah_kim',
    password: 'noahpassword',
    decision: 'approve',
  })
  const second = codeOf(again)
  const token = await tradeOnce(second)
  t.match(token.json<Reply>(), { scope: 'read' })
  t.equal((await verify(token.json<Reply>().access_token)).json<Reply>().username, 'noah_kim')
  t.equal((await tradeOnce(second)).json<Reply>().error, 'invalid_grant', 'a code works once')

  async function tradeOnce(one: string) {
    return tokenRequest(api, {
      grant_type: 'authorization_code',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      redirect_uri: REDIRECT,
      code: one,
      code_verifier: verifier,
    })
  }
})

await t.test('a code expires after ten minutes, and is for its own app only', async (t) => {
  const app = await registerApp(api)
  const other = await registerApp(api)
  const form = { client_id: app.clientId, redirect_uri: REDIRECT, username: 'noah_kim', password: 'noahpassword' }
  const trade = (code: string, by = app) =>
    tokenRequest(api, {
      grant_type: 'authorization_code',
      client_id: by.clientId,
      client_secret: by.clientSecret,
      code,
    })
  const stolen = codeOf(await authorizeForm(api, form))
  t.equal((await trade(stolen, other)).json<Reply>().error, 'invalid_grant', 'another app cannot use it')
  const late = codeOf(await authorizeForm(api, form))
  clock += 601_000
  t.equal((await trade(late)).json<Reply>().error, 'invalid_grant', 'too late')
  const fresh = codeOf(await authorizeForm(api, form))
  t.equal((await trade(fresh)).statusCode, 200)
})

await t.test('the out-of-band redirect shows the code; denying sends the app access_denied', async (t) => {
  const app = await registerApp(api)
  const shown = await authorizeForm(api, {
    client_id: app.clientId,
    redirect_uri: OOB,
    username: 'noah_kim',
    password: 'noahpassword',
  })
  t.equal(shown.statusCode, 200)
  const code = /<code>([^<]+)<\/code>/.exec(shown.body)?.[1] ?? ''
  const token = await tokenRequest(api, {
    grant_type: 'authorization_code',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    redirect_uri: OOB,
    code,
  })
  t.equal(token.statusCode, 200, 'the shown code is traded')
  const denied = await authorizeForm(api, {
    client_id: app.clientId,
    redirect_uri: REDIRECT,
    state: 's',
    decision: 'deny',
  })
  t.equal(denied.statusCode, 302)
  const location = new URL(denied.headers.location as string)
  t.equal(location.searchParams.get('error'), 'access_denied')
  t.equal(location.searchParams.get('state'), 's')
})

await t.test('a wrong password on the page shows it again with the problem, and no code', async (t) => {
  const app = await registerApp(api)
  const res = await authorizeForm(api, {
    client_id: app.clientId,
    redirect_uri: REDIRECT,
    username: 'noah_kim',
    password: 'nope',
  })
  t.equal(res.statusCode, 401)
  t.equal(res.headers.location, undefined)
  t.match(res.body, /role="alert"/)
  t.match(res.body, /value="noah_kim"/, 'the login kept')
})

await t.test('with two-factor sign-in on, the page needs the code, and takes it once', async (t) => {
  const me = await signup(api)
  const setup = await api.as(me.token, { method: 'POST', url: '/api/account/2fa/setup' })
  const { secret } = setup.json<{ secret: string }>()
  await api.as(me.token, {
    method: 'POST',
    url: '/api/account/2fa/enable',
    payload: { code: totpCode(secret, new Date(clock)), password: me.password },
  })
  clock += STEP
  const app = await registerApp(api)
  const form = { client_id: app.clientId, redirect_uri: REDIRECT, username: me.username, password: me.password }
  const without = await authorizeForm(api, form)
  t.equal(without.statusCode, 401, 'no code, no sign-in')
  t.equal(without.headers.location, undefined)
  const otp = totpCode(secret, new Date(clock))
  t.equal((await authorizeForm(api, { ...form, otp })).statusCode, 302, 'with the code')
  t.equal((await authorizeForm(api, { ...form, otp })).statusCode, 401, 'the same code again')
  const grant = await tokenRequest(api, {
    grant_type: 'password',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    username: me.username,
    password: me.password,
  })
  t.equal(grant.json<Reply>().error, 'invalid_grant', 'the password grant cannot pass two-factor sign-in')
})

await t.test('scopes are enforced: read cannot write, write cannot read, follow is not read', async (t) => {
  const app = await registerApp(api)
  const markers = (token: string) =>
    api.app.inject({
      method: 'POST',
      url: '/api/v1/markers',
      headers: bearer(token),
      payload: { home: { last_read_id: '5' } },
    })
  const read = await passwordToken(api, app, 'noah_kim', 'noahpassword', 'read')
  t.equal((await verify(read)).statusCode, 200)
  const refused = await markers(read)
  t.equal(refused.statusCode, 403)
  t.strictSame(refused.json<Reply>(), { error: 'This action is outside the authorized scopes' })
  const write = await passwordToken(api, app, 'noah_kim', 'noahpassword', 'write')
  t.equal((await markers(write)).statusCode, 200)
  t.equal((await verify(write)).statusCode, 403)
  const sub = await passwordToken(api, app, 'noah_kim', 'noahpassword', 'read:accounts write:statuses')
  t.equal((await verify(sub)).statusCode, 200, 'read:accounts covers the profile')
  t.equal((await markers(sub)).statusCode, 200, 'write:statuses covers markers')
  const follow = await passwordToken(api, app, 'noah_kim', 'noahpassword', 'follow')
  t.equal((await verify(follow)).statusCode, 403)
  const session = await api.login('noah_kim')
  t.equal((await verify(session)).statusCode, 200, "Chirp's own session has every scope")
  t.equal((await markers(session)).statusCode, 200)
})

await t.test('a token is a session: logout-all, a new password and a suspension end it', async (t) => {
  const app = await registerApp(api)
  const me = await signup(api)
  const token = await passwordToken(api, app, me.username, me.password)
  t.equal((await verify(token)).statusCode, 200)
  t.equal(
    (await api.app.inject({ method: 'GET', url: '/api/feed', headers: bearer(token) })).statusCode,
    200,
    "Chirp's own API takes it too",
  )
  await api.as(me.token, { method: 'POST', url: '/api/auth/logout-all' })
  t.equal((await verify(token)).statusCode, 401, 'logout-all')

  const next = await passwordToken(api, app, me.username, me.password)
  const fresh = await api.login(me.username, me.password)
  const newPassword = 'another fine password'
  const changed = await api.as(fresh, {
    method: 'POST',
    url: '/api/account/password',
    payload: { currentPassword: me.password, newPassword },
  })
  t.equal(changed.statusCode, 200)
  t.equal((await verify(next)).statusCode, 401, 'a new password')

  const third = await passwordToken(api, app, me.username, newPassword)
  const admin = await api.login('maya.lin')
  const suspended = await api.as(admin, {
    method: 'POST',
    url: `/api/admin/users/${me.user._id}/suspend`,
    payload: { reason: 'spam' },
  })
  t.equal(suspended.statusCode, 200)
  t.equal((await verify(third)).statusCode, 401, 'a suspension')
  const refused = await tokenRequest(api, {
    grant_type: 'password',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    username: me.username,
    password: newPassword,
  })
  t.equal(refused.json<Reply>().error, 'invalid_grant', 'and no new token while suspended')
})

await t.test(
  "deleting the account ends its apps' tokens (the store contract holds that its markers go too)",
  async (t) => {
    const app = await registerApp(api)
    const me = await signup(api)
    const token = await passwordToken(api, app, me.username, me.password)
    const marked = await api.app.inject({
      method: 'POST',
      url: '/api/v1/markers',
      headers: bearer(token),
      payload: { home: { last_read_id: '9' } },
    })
    t.equal(marked.statusCode, 200)
    const deleted = await api.as(me.token, {
      method: 'DELETE',
      url: '/api/account',
      payload: { password: me.password },
    })
    t.equal(deleted.statusCode, 200)
    t.equal((await verify(token)).statusCode, 401)
  },
)

await t.test('revoking ends the token, only by its own app', async (t) => {
  const app = await registerApp(api)
  const other = await registerApp(api)
  const token = await passwordToken(api, app, 'noah_kim', 'noahpassword')
  const keep = await passwordToken(api, app, 'noah_kim', 'noahpassword')
  const revoke = (by: typeof app) =>
    api.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { token, client_id: by.clientId, client_secret: by.clientSecret },
    })
  const foreign = await revoke(other)
  t.equal(foreign.statusCode, 403)
  t.equal(foreign.json<Reply>().error, 'unauthorized_client')
  t.equal((await verify(token)).statusCode, 200, 'still works')
  const res = await revoke(app)
  t.equal(res.statusCode, 200)
  t.strictSame(res.json<Reply>(), {})
  t.equal((await verify(token)).statusCode, 401, 'revoked')
  t.equal((await verify(keep)).statusCode, 200, 'the other token goes on')
  const unknown = await api.app.inject({
    method: 'POST',
    url: '/oauth/revoke',
    payload: { token: 'not-a-token', client_id: app.clientId, client_secret: app.clientSecret },
  })
  t.equal(unknown.statusCode, 200, 'an unknown token is no error')
})

await t.test('the authorization server metadata advertises PKCE S256 and the grants', async (t) => {
  const res = await api.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })
  t.equal(res.statusCode, 200)
  t.match(res.json<Reply>(), {
    authorization_endpoint: /\/oauth\/authorize$/,
    token_endpoint: /\/oauth\/token$/,
    revocation_endpoint: /\/oauth\/revoke$/,
    code_challenge_methods_supported: ['S256'],
    grant_types_supported: ['authorization_code', 'password', 'client_credentials'],
  })
  t.ok(res.json<Reply>().scopes_supported.includes('write:statuses'))
})

await t.test('wrong passwords on the page and in the password grant count with the login limits', async (t) => {
  const limited = await buildApiApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ loginFailuresPerAddressAndAccount: { max: 2, windowMs: 60_000 } }) },
  })
  const app = await registerApp(limited)
  const grant = (password: string) =>
    tokenRequest(limited, {
      grant_type: 'password',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      username: 'noah_kim',
      password,
    })
  t.equal((await grant('wrong')).statusCode, 400)
  t.equal(
    (
      await authorizeForm(limited, {
        client_id: app.clientId,
        redirect_uri: REDIRECT,
        username: 'noah_kim',
        password: 'wrong',
      })
    ).statusCode,
    401,
  )
  const refused = await grant('noahpassword')
  t.equal(refused.statusCode, 429, 'the right password too, once the budget is spent')
  t.strictSame(refused.json(), { error: 'Too many requests' })
  const page = await authorizeForm(limited, {
    client_id: app.clientId,
    redirect_uri: REDIRECT,
    username: 'noah_kim',
    password: 'noahpassword',
  })
  t.equal(page.statusCode, 429, 'and on the page')
  const other = await grant('x')
  t.equal(other.statusCode, 429)
  const codes = await tokenRequest(limited, {
    grant_type: 'client_credentials',
    client_id: app.clientId,
    client_secret: app.clientSecret,
  })
  t.equal(codes.statusCode, 200, 'a grant without a password is not counted')
})
