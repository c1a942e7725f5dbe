import t from 'tap'
import { signup } from '../helpers/api.js'
import { TOOT, converse, listeningChirp, missing, run, tempHome } from './harness.js'

/**
 * Debian's `toot` against Chirp: it registers itself, logs in with an e-mail address and a password (the
 * password grant), reads the account and the instance, and loses its session when the person logs out
 * everywhere; and it logs in through the sign-in page, as a person does in a browser, with the code the
 * page shows. On whichever store runs (test/clients/toot-postgres.test.ts runs it on PostgreSQL).
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

  await t.test('toot follows someone, posts, reads its home timeline, favourites and reblogs', async (t) => {
    const friend = await signup(api)
    const follow = await toot(['follow', `@${friend.username}`])
    t.equal(follow.code, 0, follow.stdout + follow.stderr)
    t.match(follow.stdout, /You are now following/)
    const friendPost = await api.as(friend.token, {
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'from the friend' },
    })
    t.equal(friendPost.statusCode, 201)
    const posted = await toot(['post', 'hello from toot #journey', '--visibility', 'unlisted'])
    t.equal(posted.code, 0, posted.stdout + posted.stderr)
    const link = /(https?:\/\/\S+\/post-detail\/\S+)/.exec(posted.stdout)?.[1]
    t.ok(link, `toot shows the new post's address: ${posted.stdout}`)
    const timeline = await toot(['timeline', '--count', '5', '--once'])
    t.equal(timeline.code, 0, timeline.stderr)
    t.match(timeline.stdout, /hello from toot #journey/)
    t.match(timeline.stdout, /from the friend/)
    const ids = [...timeline.stdout.matchAll(/ID ([0-9a-f]{76})/g)].map((m) => m[1] ?? '')
    t.equal(ids.length, 2, 'both statuses, with their ids')
    // Newest first: the friend's post is the older of the two.
    const theirs = ids[1] ?? ''
    const favourite = await toot(['favourite', theirs])
    t.equal(favourite.code, 0, favourite.stdout + favourite.stderr)
    t.match(favourite.stdout, /favourited/i)
    const reblog = await toot(['reblog', theirs])
    t.equal(reblog.code, 0, reblog.stdout + reblog.stderr)
    t.match(reblog.stdout, /reblogged/i)
  })

  await t.test('toot logs in through the sign-in page and the code it shows', async (t) => {
    const browserHome = await tempHome(t)
    const other = await signup(api, { password: 'typed in the page' })
    let asked = false
    let page = ''
    const login = await converse(
      TOOT,
      ['login', '--instance', host, '--disable-https', '--no-color'],
      async (output) => {
        if (/Open link in default browser\? \[Y\/n\]\s*$/.test(output)) return 'n'
        const url = /(http:\/\/\S+\/oauth\/authorize\S*)/.exec(output)?.[1]
        if (!url || asked || !/Authorization code:\s*$/.test(output)) return undefined
        asked = true
        const shown = await fetch(url)
        page = await shown.text()
        const fields: Record<string, string> = Object.fromEntries(
          [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
            m[1] ?? '',
            m[2] ?? '',
          ]),
        )
        const form = new URLSearchParams({ ...fields, username: other.username, password: 'typed in the page' })
        const approved = await fetch(`http://${host}/oauth/authorize`, { method: 'POST', body: form })
        return /<code>([^<]+)<\/code>/.exec(await approved.text())?.[1] ?? 'no code shown'
      },
      { env: { HOME: browserHome } },
    )
    t.ok(asked, 'toot gave the sign-in page')
    t.match(page, /Sign in to authorize toot/)
    t.equal(login.code, 0, login.stdout + login.stderr)
    t.match(login.stdout, /Successfully logged in/)
    const whoami = await run(TOOT, ['whoami', '--no-color'], { env: { HOME: browserHome } })
    t.match(whoami.stdout, new RegExp(`@${other.username}\\b`))
  })

  await t.test("toot's token is a Chirp session: logging out everywhere ends it", async (t) => {
    await api.as(me.token, { method: 'POST', url: '/api/auth/logout-all' })
    const whoami = await toot(['whoami'])
    t.not(whoami.code, 0, 'refused')
    t.notMatch(whoami.stdout, new RegExp(`@${me.username}\\b`))
  })
}
