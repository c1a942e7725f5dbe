import t from 'tap'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import webpush from 'web-push'
import { ConfigError, parseConfig } from '../../server/config.js'
import { fileVapidKeys } from '../../server/services/vapid-keys.js'

/** VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT and PUSH_ALLOW (docs/configuration.md). */

await t.test('without keys set, a pair is made once into the data directory and kept', async (t) => {
  t.equal(parseConfig({}).vapidKeys, undefined)
  const dir = await mkdtemp(path.join(tmpdir(), 'chirp-vapid-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const first = await fileVapidKeys(dir)
  t.equal(Buffer.from(first.publicKey, 'base64url').length, 65, 'a P-256 public key')
  t.strictSame(await fileVapidKeys(dir), first, 'the same pair at the next start')
  t.equal((await stat(path.join(dir, 'vapid-keys.json'))).mode & 0o777, 0o600, 'readable by its owner only')
  t.match(await readFile(path.join(dir, 'vapid-keys.json'), 'utf8'), first.privateKey)
})

await t.test('keys set are taken, both or neither, as P-256 keys', async (t) => {
  const keys = webpush.generateVAPIDKeys()
  t.strictSame(parseConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }).vapidKeys, keys)
  t.throws(() => parseConfig({ VAPID_PUBLIC_KEY: keys.publicKey }), ConfigError, 'one without the other')
  t.throws(() => parseConfig({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey }), ConfigError)
})

await t.test('the subject is PUBLIC_URL when https, else a mailto: address; a set one is checked', async (t) => {
  t.equal(parseConfig({ PUBLIC_URL: 'https://chirp.example' }).vapidSubject, 'https://chirp.example')
  t.equal(parseConfig({ PUBLIC_URL: 'http://chirp.test:3000' }).vapidSubject, 'mailto:push@chirp.test')
  t.equal(parseConfig({ VAPID_SUBJECT: 'mailto:admin@chirp.example' }).vapidSubject, 'mailto:admin@chirp.example')
  t.throws(() => parseConfig({ VAPID_SUBJECT: 'http://chirp.example' }), ConfigError)
})

await t.test('PUSH_ALLOW is a list of hosts, empty by default', async (t) => {
  t.strictSame(parseConfig({}).pushAllow, [])
  t.strictSame(parseConfig({ PUSH_ALLOW: 'localhost:8443, Push.Test' }).pushAllow, ['localhost:8443', 'push.test'])
  t.throws(() => parseConfig({ PUSH_ALLOW: 'https://push.test' }), ConfigError)
})
