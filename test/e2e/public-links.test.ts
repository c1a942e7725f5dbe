import t from 'tap'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E } from './harness.js'
import { call, signupUser } from './helpers.js'

/**
 * A shared post link with PUBLIC_READ: a chat app's unfurler finds the preview in the HTML without
 * running scripts, and a visitor without an account reads the post, with a call to join.
 */
const e2e = await startE2E(t, { env: { PUBLIC_READ: 'true' } })
const CONTENT = 'A cup of "tea" & <biscuits> at four #teatime'
const ALT = 'Two cups on a wooden table'

async function sharedPost(): Promise<{ id: string; fullName: string; username: string }> {
  if (!e2e) throw new Error('no browser')
  const author = await signupUser(e2e, 'sharer')
  const { post } = await call<{ post: { _id: string } }>(
    e2e,
    'POST',
    '/api/posts',
    { content: CONTENT, mediaUrl: 'https://images.example/tea.jpg', mediaAlt: ALT },
    author.token,
  )
  return { id: post._id, fullName: author.fullName, username: author.username }
}

const shared = e2e ? await sharedPost() : undefined

await t.test('an unfurler reads the preview from the HTML of the built page', async (t) => {
  if (!e2e || !shared) return
  const res = await fetch(`${e2e.baseURL}/post-detail/${shared.id}`, {
    headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' },
  })
  t.equal(res.status, 200)
  const html = await res.text()
  const meta = (key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1]
  t.equal(meta('og:title'), `${shared.fullName} (@${shared.username}) on Chirp`)
  t.equal(meta('og:description'), 'A cup of &quot;tea&quot; &amp; &lt;biscuits&gt; at four #teatime', 'escaped')
  t.equal(meta('og:image'), 'https://images.example/tea.jpg')
  t.equal(meta('og:image:alt'), ALT)
  t.equal(meta('twitter:card'), 'summary_large_image')
  t.ok(html.indexOf('og:title') < html.indexOf('</head>'), 'in the head')
})

await journey(t, e2e, 'a visitor opens a shared post and is asked to join to like it', {}, async (page, t) => {
  if (!shared) return
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/post-detail/${shared.id}`)
  const article = page.getByRole('article')
  await article.getByText('A cup of "tea" & <biscuits> at four').waitFor()
  t.equal(new URL(page.url()).pathname, `/post-detail/${shared.id}`, 'no detour to the login page')
  t.ok(await page.getByRole('complementary', { name: 'Join Chirp' }).isVisible(), 'a call to join')
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `no serious or critical axe finding (${scheme})`)
  }
  await article.getByRole('button', { name: /like/i }).click()
  await page.waitForURL((url) => url.pathname === '/signup')
  t.equal(new URL(page.url()).searchParams.get('from'), `/post-detail/${shared.id}`, 'joining comes back to the post')
})
