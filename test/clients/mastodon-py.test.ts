import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { signup } from '../helpers/api.js'
import { DEBIAN_PYTHON, listeningChirp, missing, run, tempHome } from './harness.js'

/**
 * Mastodon.py (Debian's python3-mastodon) against Chirp: it registers an app, logs in by the password grant,
 * reads the account, the instance, preferences and custom emoji, moves a marker, and revokes its token. The
 * script prints one JSON line a step, which the tests below read. On whichever store runs
 * (test/clients/mastodon-py-postgres.test.ts runs it on PostgreSQL).
 */
const SCRIPT = `
import json, sys
from mastodon import Mastodon, MastodonError

base, username, password = sys.argv[1:4]
def say(step, value):
    print(json.dumps({'step': step, 'value': value}, default=str), flush=True)

client_id, client_secret = Mastodon.create_app('Journey', api_base_url=base, scopes=['read', 'write', 'follow'])
m = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)
m.log_in(username, password, scopes=['read', 'write', 'follow'])
me = m.account_verify_credentials()
say('me', {'id': me['id'], 'username': me['username'], 'acct': me['acct'], 'privacy': me['source']['privacy'], 'note': me['note']})
instance = m.instance()
say('instance', {'version': instance['version'], 'streaming': instance['urls']['streaming_api']})
say('version', m.retrieve_mastodon_version())
say('preferences', m.preferences())
say('emojis', m.custom_emojis())
m.markers_set(['home'], ['42'])
marker = m.markers_get(['home'])['home']
say('marker', {'last_read_id': str(marker['last_read_id']), 'version': marker['version']})
m.revoke_access_token()
try:
    m.account_verify_credentials()
    say('after revoke', 'still signed in')
except MastodonError as error:
    say('after revoke', type(error).__name__)
`

interface Line {
  step: string
  value: unknown
}

const why = await missing('python3-mastodon')
if (why) {
  t.plan(0, why)
} else {
  const { api, base } = await listeningChirp(t)
  const home = await tempHome(t)
  const script = path.join(home, 'journey.py')
  await writeFile(script, SCRIPT)
  const me = await signup(api, { password: 'a password python types' })
  const outcome = await run(DEBIAN_PYTHON, [script, base, me.username, 'a password python types'], {
    env: { HOME: home },
  })
  const lines = outcome.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
  const step = (name: string) => lines.find((line) => line.step === name)?.value

  await t.test('the journey runs to its end', async (t) => {
    t.equal(outcome.code, 0, outcome.stderr)
  })

  await t.test('Mastodon.py logs in and reads the account', async (t) => {
    t.match(step('me'), { id: me.user._id, username: me.username, acct: me.username, privacy: 'public' })
  })

  await t.test('Mastodon.py reads the instance and parses its version', async (t) => {
    t.match(step('instance'), { version: /^4\.3\.0 \(compatible; Chirp /, streaming: /^ws:\/\// })
    t.equal(step('version'), '4.3.0')
  })

  await t.test('Mastodon.py reads preferences and custom emoji, and moves a marker', async (t) => {
    t.match(step('preferences'), { 'posting:default:visibility': 'public' })
    t.strictSame(step('emojis'), [])
    t.strictSame(step('marker'), { last_read_id: '42', version: 1 })
  })

  await t.test('Mastodon.py revokes its token, which then stops working', async (t) => {
    t.equal(step('after revoke'), 'MastodonUnauthorizedError')
  })
}
