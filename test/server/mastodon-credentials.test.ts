import t from 'tap'
import * as MSG from '../../common/messages.js'
import { multipart, PNG } from '../helpers/images.js'
import { seedWithStaff } from '../helpers/moderation.js'
import { bearer, mastodonClient, tokenRequest, type MastodonPerson, type RegisteredApp } from '../helpers/mastodon.js'

/**
 * The person's own account through the Mastodon client API (DECISIONS §13): update_credentials over
 * Chirp's profile edit and uploads, signing up over Chirp's signup with an app's token, and account
 * search. On whichever store runs.
 */
const { api, client, person, call, json } = await mastodonClient(t)
type Person = MastodonPerson
interface Own {
  display_name: string
  note: string
  locked: boolean
  avatar: string
  header: string
  fields: { name: string; value: string }[]
  source: { note: string; privacy: string; fields: { name: string; value: string }[] }
}

const update = (who: Person, payload: Record<string, unknown>) =>
  call('PATCH', '/api/v1/accounts/update_credentials', who, payload)
const updateForm = (who: Person, fields: Record<string, string>) =>
  api.app.inject({
    method: 'PATCH',
    url: '/api/v1/accounts/update_credentials',
    headers: { ...bearer(who.bearer), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  })
const updateParts = (who: Person, parts: Parameters<typeof multipart>[0]) => {
  const body = multipart(parts)
  return api.app.inject({
    method: 'PATCH',
    url: '/api/v1/accounts/update_credentials',
    headers: { ...bearer(who.bearer), ...body.headers },
    payload: body.payload,
  })
}
const own = (who: Person) => json<Own>('GET', '/api/v1/accounts/verify_credentials', who)

await t.test('update_credentials: names, note, lock and default audience, as JSON and as a form', async (t) => {
  const alice = await person()
  const res = await update(alice, {
    display_name: 'Alice A.',
    note: 'Hello there',
    locked: true,
    source: { privacy: 'private' },
  })
  t.equal(res.statusCode, 200)
  t.match(res.json(), {
    display_name: 'Alice A.',
    note: '<p>Hello there</p>',
    locked: true,
    source: { privacy: 'private' },
  })
  const profile = await api.as(alice.token, { method: 'GET', url: `/api/users/${alice.username}` })
  t.match(profile.json(), {
    user: { displayName: 'Alice A.', bio: 'Hello there', locked: true, defaultVisibility: 'followers' },
  })
  const form = await updateForm(alice, { locked: 'false', 'source[privacy]': 'unlisted', note: 'Changed' })
  t.equal(form.statusCode, 200)
  t.match(form.json(), { locked: false, note: '<p>Changed</p>', source: { privacy: 'unlisted' } })
  t.match(await json('GET', '/api/v1/preferences', alice), { 'posting:default:visibility': 'unlisted' })
  t.match(await own(alice), { display_name: 'Alice A.' }, 'what was not sent is kept')
})

await t.test("update_credentials: the Website field is Chirp's one field; the others are not kept", async (t) => {
  const alice = await person()
  const form = await updateForm(alice, {
    'fields_attributes[0][name]': 'Pronouns',
    'fields_attributes[0][value]': 'she/her',
    'fields_attributes[1][name]': 'Website',
    'fields_attributes[1][value]': 'https://alice.example',
  })
  t.equal(form.statusCode, 200)
  t.same(
    form.json<Own>().source.fields.map((field) => [field.name, field.value]),
    [['Website', 'https://alice.example']],
  )
  const cleared = await update(alice, { fields_attributes: [{ name: 'Pronouns', value: 'she/her' }] })
  t.same(cleared.json<Own>().fields, [], 'fields without a Website: none')
  t.same((await update(alice, { display_name: 'A' })).json<Own>().fields, [], 'no fields sent: kept as they are')
})

await t.test('update_credentials: avatar and header as images of a multipart body, stored as uploads', async (t) => {
  const alice = await person()
  const res = await updateParts(alice, [
    { name: 'display_name', data: 'Pictured' },
    { name: 'avatar', filename: 'me.png', type: 'image/png', data: PNG },
    { name: 'header', filename: 'wide.png', type: 'image/png', data: PNG },
  ])
  t.equal(res.statusCode, 200, res.body)
  const body = res.json<Own>()
  t.equal(body.display_name, 'Pictured')
  for (const url of [body.avatar, body.header]) {
    t.match(url, /^https:\/\/chirp\.example\/media\/[0-9a-f-]+\.png$/, 'an upload of this server')
    const image = await api.app.inject({ method: 'GET', url: new URL(url).pathname })
    t.equal(image.statusCode, 200, 'served')
    t.equal(image.headers['content-type'], 'image/png')
  }
  const profile = await api.as(alice.token, { method: 'GET', url: `/api/users/${alice.username}` })
  t.match(profile.json(), {
    user: { avatarURL: new URL(body.avatar).pathname, bannerURL: new URL(body.header).pathname },
  })
})

await t.test('update_credentials: bad input is refused and changes nothing', async (t) => {
  const alice = await person()
  await update(alice, { display_name: 'Before', note: 'Kept' })
  const refusals: [string, () => ReturnType<typeof update>, number][] = [
    ['an unknown audience', () => update(alice, { source: { privacy: 'friends' } }), 422],
    ['a name too long', () => update(alice, { display_name: 'n'.repeat(51) }), 400],
    ['a note too long', () => update(alice, { note: 'n'.repeat(161) }), 400],
    ['a lock that is no flag', () => update(alice, { locked: 'perhaps' }), 422],
    [
      'not an image',
      () => updateParts(alice, [{ name: 'avatar', filename: 'a.png', type: 'image/png', data: 'text' }]),
      415,
    ],
    ['a file in another field', () => updateParts(alice, [{ name: 'photo', filename: 'a.png', data: PNG }]), 422],
  ]
  for (const [what, send, status] of refusals) {
    const res = await send()
    t.equal(res.statusCode, status, `${what}: ${res.body}`)
    t.type(res.json<{ error: string }>().error, 'string', what)
  }
  t.match(await own(alice), { display_name: 'Before', note: '<p>Kept</p>', locked: false })
  const reader = { ...alice, bearer: (await person('read')).bearer }
  t.equal((await update(reader, { display_name: 'Changed' })).statusCode, 403, 'a read token may not')
  t.equal((await call('PATCH', '/api/v1/accounts/update_credentials', undefined, { note: 'x' })).statusCode, 401)
  t.match(await own(alice), { display_name: 'Before' })
})

/** An app's own token (client_credentials), with `scope`. */
async function appToken(app: RegisteredApp, scope = 'read write') {
  const res = await tokenRequest(api, {
    grant_type: 'client_credentials',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope,
  })
  return res.json<{ access_token: string }>().access_token
}
const signupBody = (username: string) => ({
  username,
  email: `${username}@example.com`,
  password: 'correct horse battery',
  agreement: true,
  locale: 'en',
})

await t.test("signup with an app's token: a token for the new account, through the app", async (t) => {
  const token = await appToken(client)
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/v1/accounts',
    headers: bearer(token),
    payload: signupBody('newcomer_one'),
  })
  t.equal(res.statusCode, 200, res.body)
  const granted = res.json<{ access_token: string; token_type: string; scope: string }>()
  t.match(granted, { token_type: 'Bearer', scope: 'read write' })
  const me = await api.app.inject({
    method: 'GET',
    url: '/api/v1/accounts/verify_credentials',
    headers: bearer(granted.access_token),
  })
  t.match(me.json(), { username: 'newcomer_one' })
  const app = await api.app.inject({
    method: 'GET',
    url: '/api/v1/apps/verify_credentials',
    headers: bearer(granted.access_token),
  })
  t.match(app.json(), { name: 'Test app' }, "the app's token")
  const login = await api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'newcomer_one', password: 'correct horse battery' },
  })
  t.equal(login.statusCode, 200, 'a Chirp account like any other')
})

await t.test('signup refusals: the same rules as Chirp, nothing made', async (t) => {
  const token = await appToken(client)
  const taken = await person()
  const send = (payload: Record<string, unknown>, headers: Record<string, string> = bearer(token)) =>
    api.app.inject({ method: 'POST', url: '/api/v1/accounts', headers, payload })
  const refusals: [string, Record<string, unknown>, number, string | RegExp][] = [
    [
      'no agreement',
      { ...signupBody('newcomer_two'), agreement: false },
      422,
      'Validation failed: Agreement must be accepted',
    ],
    ['a short password', { ...signupBody('newcomer_two'), password: 'short' }, 422, /^Validation failed/],
    ['a bad username', { ...signupBody('new comer'), username: 'new comer' }, 422, /^Validation failed/],
    ['a bad address', { ...signupBody('newcomer_two'), email: 'nowhere' }, 422, /^Validation failed/],
    ['a taken username', signupBody(taken.username), 422, MSG.usernameExists],
  ]
  for (const [what, payload, status, error] of refusals) {
    const res = await send(payload)
    t.equal(res.statusCode, status, what)
    t.match(res.json(), { error }, what)
  }
  const noToken = await api.app.inject({ method: 'POST', url: '/api/v1/accounts', payload: signupBody('newcomer_two') })
  t.equal(noToken.statusCode, 401, 'an app token is needed')
  t.equal(
    (await send(signupBody('newcomer_two'), bearer(taken.bearer))).statusCode,
    401,
    "a person's token is not an app's",
  )
  const readOnly = await appToken(client, 'read')
  t.equal((await send(signupBody('newcomer_two'), bearer(readOnly))).statusCode, 403, 'write:accounts is needed')
  const lookup = await call('GET', '/api/v1/accounts/lookup?acct=newcomer_two')
  t.equal(lookup.statusCode, 404, 'nobody was made')
})

await t.test('signup honours REGISTRATION: closed refuses, approval makes a waiting account', async (t) => {
  for (const registration of ['closed', 'approval'] as const) {
    const other = await mastodonClient(t, { config: { registration } })
    const token = (
      await tokenRequest(other.api, {
        grant_type: 'client_credentials',
        client_id: other.client.clientId,
        client_secret: other.client.clientSecret,
      })
    ).json<{ access_token: string }>().access_token
    const res = await other.api.app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: bearer(token),
      payload: signupBody(`waiting_${registration}`),
    })
    t.equal(res.statusCode, 403, registration)
    t.same(res.json(), { error: registration === 'closed' ? MSG.signupsClosed : MSG.accountPending }, registration)
    const login = await other.api.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: `waiting_${registration}`, password: 'correct horse battery' },
    })
    t.match(
      login.json(),
      { errors: [registration === 'closed' ? MSG.userNotRegistered : MSG.accountPending] },
      `${registration}: no way in yet`,
    )
  }
})

await t.test('signup with REGISTRATION=invite: a valid invite_code, used up as on Chirp', async (t) => {
  const other = await mastodonClient(t, { config: { registration: 'invite' }, options: { seed: seedWithStaff } })
  const admin = await other.api.login('maya.lin')
  const invite = await other.api.as(admin, { method: 'POST', url: '/api/invites', payload: { uses: 1 } })
  const code = invite.json<{ invite: { code: string } }>().invite.code
  const token = (
    await tokenRequest(other.api, {
      grant_type: 'client_credentials',
      client_id: other.client.clientId,
      client_secret: other.client.clientSecret,
    })
  ).json<{ access_token: string }>().access_token
  const send = (username: string, invite_code?: string) =>
    other.api.app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: bearer(token),
      payload: { ...signupBody(username), ...(invite_code === undefined ? {} : { invite_code }) },
    })
  const without = await send('invited_none')
  t.equal(without.statusCode, 403)
  t.same(without.json(), { error: MSG.inviteRequired })
  t.equal((await send('invited_one', code)).statusCode, 200, 'with the code')
  const again = await send('invited_two', code)
  t.same([again.statusCode, again.json()], [403, { error: MSG.inviteRequired }], 'the code is used up')
})

await t.test('accounts/search: by username and name, following alone, first page alone', async (t) => {
  const seeker = await person()
  const target = await person()
  await api.as(target.token, { method: 'POST', url: '/api/users/edit', payload: { firstName: 'Zephyrine' } })
  const byName = await json<{ id: string }[]>('GET', '/api/v1/accounts/search?q=Zephyrine', seeker)
  t.same(
    byName.map((account) => account.id),
    [target.user._id],
  )
  const byAcct = await json<{ id: string }[]>(
    'GET',
    `/api/v1/accounts/search?q=${encodeURIComponent(`@${target.username}@chirp.example`)}`,
    seeker,
  )
  t.same(
    byAcct.map((account) => account.id),
    [target.user._id],
  )
  t.same(await json('GET', '/api/v1/accounts/search?q=Zephyrine&following=true', seeker), [], 'not followed yet')
  await json('POST', `/api/v1/accounts/${target.user._id}/follow`, seeker)
  t.same(
    (await json<{ id: string }[]>('GET', '/api/v1/accounts/search?q=Zephyrine&following=true', seeker)).map(
      (account) => account.id,
    ),
    [target.user._id],
  )
  t.same(await json('GET', '/api/v1/accounts/search?q=Zephyrine&offset=40', seeker), [], 'nothing past the first page')
  t.equal((await call('GET', '/api/v1/accounts/search?q=Zephyrine')).statusCode, 401, 'a token is needed')
  t.equal((await call('GET', '/api/v1/accounts/search', seeker)).statusCode, 422, 'q is needed')
  const writer = await person('write')
  t.equal((await call('GET', '/api/v1/accounts/search?q=Zephyrine', writer)).statusCode, 403, 'read:accounts')
})
