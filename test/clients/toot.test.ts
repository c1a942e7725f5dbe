import t from 'tap'
import { signup } from '../helpers/api.js'
import { TOOT, listeningChirp, missing, run, tempHome } from './harness.js'

/**
 * Debian's `toot` against Chirp: it registers itself, logs in with an e-mail address and a password (the
 * password grant), reads the account and the instance, and loses its session when the person logs out
 * everywhere. On whichever store runs (test/clients/toot-postgres.test.ts runs it on PostgreSQL).
 */
const why = await missing('toot')
if (why) {
  t.plan(0, why)
} else {
  const { api, host } = await listeningChirp(t)
  const home = await tempHome(t)
  const toot = (args: string[], input = '') => run(TOOT, [...args, '--no-color'], { input, env: { HOME: home } })
  const me = await signup(api, { password: 'a password toot types' })

  await t.test('toot logs in with the e-mail address and the password', async (t) => {
    const login = await toot(
      ['login_cli', '--instance', host, '--disable-https', '--email', `${me.username.toLowerCase()}@example.com`],
      'a password toot types\n',
    )
    t.equal(login.code, 0, login.stdout + login.stderr)
    t.match(login.stdout, /Successfully logged in/)
  })

  await t.test('toot reads the account it logged in to', async (t) => {
    const whoami = await toot(['whoami'])
    t.equal(whoami.code, 0, whoami.stderr)
    t.match(whoami.stdout, new RegExp(`@${me.username}\\b`))
    t.match(whoami.stdout, new RegExp(`ID: ${me.user._id}`))
  })

  await t.test('toot reads the instance, and the version it parses', async (t) => {
    const instance = await toot(['instance', '--disable-https', host])
    t.equal(instance.code, 0, instance.stderr)
    t.match(instance.stdout, /running Mastodon 4\.3\.0 \(compatible; Chirp /)
  })

  await t.test("toot's token is a Chirp session: logging out everywhere ends it", async (t) => {
    await api.as(me.token, { method: 'POST', url: '/api/auth/logout-all' })
    const whoami = await toot(['whoami'])
    t.not(whoami.code, 0, 'refused')
    t.notMatch(whoami.stdout, new RegExp(`@${me.username}\\b`))
  })
}
