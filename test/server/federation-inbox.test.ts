import { fetchDocumentLoader, Follow, generateCryptoKeyPair, signRequest, type DocumentLoader } from '@fedify/fedify'
import type { LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import * as MSG from '../../common/messages.js'
import { buildApiApp, expectError, signup, storedText } from '../helpers/api.js'
import { signingActor } from '../helpers/federation-instances.js'
import { untilOverview } from '../helpers/jobs.js'
import { call, seedWithStaff } from '../helpers/moderation.js'

/**
 * Inboxes (DECISIONS §14): an activity is accepted (202) only when it is signed by a key its actor owns;
 * unsigned, badly signed or signed with another actor's key it is refused with 401 and changes nothing.
 * Remote actors are served by the test's own document loader, in place of the network.
 */
const ORIGIN = 'https://chirp.example'
const REMOTE = 'https://remote.example'

const documents = new Map<string, unknown>()
const loader: DocumentLoader = async (url) => {
  const document = documents.get(url)
  if (document !== undefined) return { contextUrl: null, document, documentUrl: url }
  // JSON-LD contexts come from Fedify's preloaded copies; anything else is not on this test's network.
  if (url.startsWith('https://www.w3.org/') || url.startsWith('https://w3id.org/')) return fetchDocumentLoader(url)
  throw new Error(`no document at ${url}`)
}

/** A remote person whose actor the loader serves, with the key pair they sign with. */
async function remotePerson(name: string) {
  const { document, ...actor } = await signingActor(REMOTE, name)
  const { id, keyId } = actor
  documents.set(id.href, document)
  documents.set(keyId.href, document)
  return actor
}

const api = await buildApiApp(t, {
  config: { federation: true, publicUrl: ORIGIN },
  // This file's remote servers exist only in its loader: what would be delivered to them (the Accept of a
  // Follow) is dropped, not retried against an address that is nowhere.
  options: { federationDocumentLoader: loader, seed: seedWithStaff, jobHandlers: { delivery: async () => {} } },
})
const admin = await api.login('maya.lin')
const me = await signup(api)
// Its actor first, so its keys exist before the store is compared.
await api.app.inject({
  method: 'GET',
  url: `/ap/users/${me.user._id}`,
  headers: { accept: 'application/activity+json' },
})
const inbox = `/ap/users/${me.user._id}/inbox`
const [alice, bob] = await Promise.all([remotePerson('alice'), remotePerson('bob')])

async function followBody(actor: URL) {
  const follow = new Follow({
    id: new URL(`${actor.href}/follows/${crypto.randomUUID()}`),
    actor,
    object: new URL(`${ORIGIN}/ap/users/${me.user._id}`),
  })
  return JSON.stringify(await follow.toJsonLd())
}

/** Sends `body` to `path` as Fastify would receive it, signed by `signer` when one is given. */
async function deliver(path: string, body: string, signer?: { keyId: URL; privateKey: CryptoKey }) {
  const unsigned = new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
    body,
  })
  const request = signer ? await signRequest(unsigned, signer.privateKey, signer.keyId) : unsigned
  const headers = Object.fromEntries(request.headers.entries())
  return api.app.inject({ method: 'POST', url: path, headers: { host: 'chirp.example', ...headers }, payload: body })
}

/** What the store holds but Fedify's own cache, where the keys fetched to check a signature are kept a while. */
const chirpData = async () =>
  (await storedText(api))
    .split('\n')
    .filter((line) => !line.includes('_fedify'))
    .join('\n')

/** What the store holds once the writes of what was accepted before have reached it: two reads alike. */
async function settledData() {
  let last = await chirpData()
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const now = await chirpData()
    if (now === last) return now
    last = now
  }
  return last
}

const refused = (t: Test, res: LightMyRequestResponse, what: string) =>
  t.equal(res.statusCode, 401, `${what}: ${res.statusCode} ${res.body.slice(0, 200)}`)

await t.test('an activity signed by its actor’s own key is accepted', async (t) => {
  const res = await deliver(inbox, await followBody(alice.id), alice)
  t.equal(res.statusCode, 202, res.body)
  // Each waits in the job queue as an `inbox` job until Fedify's listener has taken it. The second is
  // sent once the first is answered: this is about where an activity may arrive, not two at once.
  await untilOverview(api, admin, ({ kinds }) => kinds.inbox?.done === 1 && kinds.delivery?.done === 1)
  const shared = await deliver('/ap/inbox', await followBody(alice.id), alice)
  t.equal(shared.statusCode, 202, 'at the shared inbox too')
  const settled = await untilOverview(api, admin, ({ kinds }) => kinds.inbox?.done === 2 && kinds.delivery?.done === 2)
  t.match(settled.kinds.inbox, { queued: 0, running: 0, done: 2, failed: 0 }, 'both ran through the job queue')
  t.match(settled.kinds.delivery, { queued: 0, running: 0, done: 2 }, 'and each was answered with an Accept')
})

await t.test('unsigned, badly signed or another actor’s key: 401, and nothing is stored', async (t) => {
  const before = await settledData()
  refused(t, await deliver(inbox, await followBody(alice.id)), 'unsigned')
  refused(t, await deliver('/ap/inbox', await followBody(alice.id)), 'unsigned, at the shared inbox')
  refused(t, await deliver(inbox, await followBody(alice.id), bob), 'signed with another actor’s key')
  const stranger = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5')
  refused(
    t,
    await deliver(inbox, await followBody(alice.id), { keyId: alice.keyId, privateKey: stranger.privateKey }),
    'a signature that does not verify',
  )
  const body = await followBody(alice.id)
  const signed = await signRequest(
    new Request(`${ORIGIN}${inbox}`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body,
    }),
    alice.privateKey,
    alice.keyId,
  )
  const tampered = body.replace(alice.id.href, bob.id.href)
  const res = await api.app.inject({
    method: 'POST',
    url: inbox,
    headers: { host: 'chirp.example', ...Object.fromEntries(signed.headers.entries()) },
    payload: tampered,
  })
  refused(t, res, 'a body changed after it was signed')
  t.equal(await chirpData(), before, 'nothing changed in the store')
})

await t.test('a deleted person’s inbox is gone', async (t) => {
  const leaver = await signup(api)
  await call(api, leaver.token, 'DELETE', '/api/account', { password: leaver.password })
  expectError(
    t,
    await deliver(`/ap/users/${leaver.user._id}/inbox`, await followBody(alice.id), alice),
    410,
    MSG.accountGone,
  )
})

await t.test('an activity larger than 1 MB is refused before it is read', async (t) => {
  const huge = JSON.stringify({ type: 'Note', content: 'x'.repeat(1024 * 1024) })
  const res = await deliver('/ap/inbox', huge)
  t.equal(res.statusCode, 413)
})
