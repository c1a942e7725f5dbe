import t from 'tap'
import { createAccountSecrets } from '../../server/services/account-secrets.js'
import { createFederationPeople } from '../../server/services/federation-people.js'
import { openTestStore } from '../helpers/jobs.js'

/**
 * A person's federation keys (DECISIONS §14): made once, kept with the private halves sealed under a key
 * of their own derived from the token secret, and unusable under another secret.
 */
const SECRET = 'a-token-secret-that-is-long-enough-for-this'

await t.test('private keys are sealed under a key of their own', async (t) => {
  const secrets = createAccountSecrets(SECRET)
  const sealed = secrets.sealActorKey('{"d":"private"}')
  t.notMatch(sealed, /private/, 'not in the clear')
  t.equal(secrets.openActorKey(sealed), '{"d":"private"}')
  t.equal(secrets.open(sealed), undefined, 'the two-factor key does not open it')
  t.equal(secrets.openActorKey(secrets.seal('{"d":"private"}')), undefined, 'nor it a two-factor secret')
  t.equal(createAccountSecrets(`${SECRET}-other`).openActorKey(sealed), undefined, 'nor another token secret')
})

await t.test('a person’s key pairs are made once, and only for someone who is there', async (t) => {
  const store = await openTestStore(t)
  const people = createFederationPeople({ store, now: () => new Date(), secrets: createAccountSecrets(SECRET) })
  const [person] = (await store.listUsers({})).items
  const id = person?._id ?? ''
  const first = await people.keys(id)
  t.equal(first?.rsa.publicKey.kty, 'RSA')
  t.equal(first?.ed25519.publicKey.crv, 'Ed25519')
  t.ok(first?.rsa.privateKey.d && first.ed25519.privateKey.d, 'with their private halves')
  t.strictSame(await people.keys(id), first, 'the same pairs the next time')
  const stored = await store.getActorKeys(id)
  t.notMatch(JSON.stringify(stored), /"d"/, 'kept sealed')
  t.equal(await people.keys('00000000-0000-4000-8000-000000000000'), undefined, 'nobody has none')

  const elsewhere = createFederationPeople({
    store,
    now: () => new Date(),
    secrets: createAccountSecrets(`${SECRET}-other`),
  })
  t.equal(await elsewhere.keys(id), undefined, 'under another token secret the kept keys cannot sign')
  t.strictSame(await store.getActorKeys(id), stored, 'and are not replaced')
})
