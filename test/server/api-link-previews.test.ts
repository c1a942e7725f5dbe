import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t, { type Test } from 'tap'
import { buildApiApp, signup } from '../helpers/api.js'
import { tempDataDir } from '../helpers/app.js'

/**
 * Shared links (DECISIONS §2): the HTML of a post's, a profile's and a tag's page carries Open Graph and
 * Twitter card tags, read here as a chat app's unfurler reads them, from the HTML alone, running nothing.
 */
const clientDir = path.join(await tempDataDir(t), 'client')
await mkdir(clientDir, { recursive: true })
const INDEX =
  '<!doctype html><html><head><meta charset="UTF-8" /><title>Chirp</title></head><body><div id="root"></div></body></html>'
await writeFile(path.join(clientDir, 'index.html'), INDEX)
const api = await buildApiApp(t, { config: { clientDir } })
const visitors = await buildApiApp(t, { config: { clientDir, publicRead: true } })

const author = await signup(api, { firstName: 'Ada "Ace"', lastName: '<Lovelace>' })
const BIO = 'Counts & "engines" <b>bold</b> it\'s me'
await api.as(author.token, { method: 'POST', url: '/api/users/edit', payload: { bio: BIO } })
const HOSTILE = 'Look <script>alert("x")</script> & \'quotes\' #Tea'
const IMAGE = 'https://images.example/cat.png?a=1&b=2'
const ALT = 'A "cat" <on> a mat'
async function newPost(content: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await api.as(author.token, { method: 'POST', url: '/api/posts', payload: { content, ...extra } })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: { _id: string } }).post._id
}
const withImage = await newPost(HOSTILE, { mediaUrl: IMAGE, mediaAlt: ALT })
const long = await newPost('word '.repeat(80).trim())
const plain = await newPost('Just words')

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }
/** Every `<meta property|name="…" content="…">` of the head, its content unescaped, as an unfurler reads them. */
function metaOf(html: string): Record<string, string> {
  const head = html.slice(0, html.indexOf('</head>'))
  const found: Record<string, string> = {}
  for (const [, key = '', value = ''] of head.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) {
    found[key] = value.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ENTITIES[entity] ?? '')
  }
  return found
}
/** As a chat app asks: no token, no cookies, and an Accept that is not a browser's. */
const unfurl = (url: string, app = api) =>
  app.app.inject({ method: 'GET', url, headers: { accept: '*/*', host: 'chirp.example' } })

await t.test("a post's page: its author, its text, its image and the image's alt text", async (t) => {
  const res = await unfurl(`/post-detail/${withImage}`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/html/)
  const meta = metaOf(res.body)
  t.equal(meta['og:title'], 'Ada "Ace" <Lovelace> (@' + author.username + ') on Chirp')
  t.equal(meta['og:description'], HOSTILE)
  t.equal(meta['og:image'], IMAGE)
  t.equal(meta['og:image:alt'], ALT)
  t.equal(meta['og:type'], 'article')
  t.equal(meta['og:url'], `http://chirp.example/post-detail/${withImage}`)
  t.equal(meta['og:site_name'], 'Chirp')
  t.equal(meta['twitter:card'], 'summary_large_image')
  t.equal(meta['twitter:title'], meta['og:title'])
  t.equal(meta['twitter:description'], HOSTILE)
  t.equal(meta['twitter:image'], IMAGE)
  t.equal(meta['twitter:image:alt'], ALT)
  t.notOk(res.body.includes('<script>'), 'no tag of the text reaches the HTML')
  t.notOk(res.body.includes('<Lovelace>') || res.body.includes('<on>'), 'nor of the name or the alt text')
  t.ok(res.body.includes('<div id="root"></div>'), 'the rest is the client page')
  t.notOk(meta['chirp:public-read'], 'visitors are not let in by default')
})

await t.test(
  "a post without an image shows its author's avatar as a small card; a long text is cut to 200",
  async (t) => {
    const meta = metaOf((await unfurl(`/post-detail/${plain}`)).body)
    t.equal(meta['og:description'], 'Just words')
    t.equal(meta['twitter:card'], 'summary')
    t.match(meta['og:image'], /^http:\/\/chirp\.example\/avatars\//, 'the avatar, as an absolute URL')
    const cut = metaOf((await unfurl(`/post-detail/${long}`)).body)['og:description'] ?? ''
    t.equal([...cut].length, 200)
    t.ok(cut.endsWith('…'), 'and says it was cut')
  },
)

await t.test("a profile's page: the name, the bio and the avatar", async (t) => {
  const res = await unfurl(`/profile/${author.username}`)
  t.equal(res.statusCode, 200)
  const meta = metaOf(res.body)
  t.equal(meta['og:title'], 'Ada "Ace" <Lovelace> (@' + author.username + ') on Chirp')
  t.equal(meta['og:description'], BIO)
  t.equal(meta['og:type'], 'profile')
  t.match(meta['og:image'], /^http:\/\/chirp\.example\/avatars\//)
  t.notOk(res.body.includes('<b>'), 'the bio is escaped')
})

await t.test("a tag's page names the tag, lower case", async (t) => {
  const meta = metaOf((await unfurl('/tag/Tea')).body)
  t.equal(meta['og:title'], '#tea on Chirp')
  t.equal(meta['og:description'], 'Posts tagged #tea on Chirp')
})

await t.test('a page of nothing answers 404 with the plain client page and no preview', async (t: Test) => {
  for (const url of [
    '/post-detail/00000000-0000-4000-8000-000000000000',
    '/post-detail/not%20an%20id',
    '/profile/nobody_here_at_all',
    '/profile/%3Cscript%3E',
    '/tag/1234',
  ]) {
    const res = await unfurl(url)
    t.equal(res.statusCode, 404, url)
    t.equal(res.body, INDEX, `${url}: the page as built`)
  }
})

await t.test('with PUBLIC_READ the pages tell the client that visitors may read them', async (t) => {
  for (const url of [`/post-detail/${plain}`, `/profile/${author.username}`, '/tag/tea']) {
    t.equal(metaOf((await unfurl(url, visitors)).body)['chirp:public-read'], 'true', url)
  }
})
