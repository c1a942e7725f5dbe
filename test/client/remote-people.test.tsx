import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { PostCard } from '../../client/components/post-card.js'
import type { Post, User } from '../../client/api/types.js'
import { users } from '../../client/state/users.js'
import { cardProps, makePost, makeUser, ok, renderAt, resetAll, summary, until, fail } from './helpers.js'
import { liveApp, samples } from './live-app.js'

/**
 * People and posts of other servers (DECISIONS §14) as the client shows them: a remote post's HTML drawn
 * through a safe path (nothing hostile in it runs or survives), with a link to the original; a remote
 * person's profile with their page there, their posts, follow (a request when locked), block, mute and
 * report; and a search for `@name@host` that finds them through the server.
 */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const HOST = 'remote.example'
const HANDLE = `bea@${HOST}`
/** How the client asks for the person: the handle as one path segment. */
const HANDLE_PATH = encodeURIComponent(HANDLE)
/** Its profile's address here. */
const PROFILE = `/profile/${HANDLE}`

const bea = (overrides: Partial<User> = {}): User =>
  makeUser({
    _id: 'id-bea',
    username: HANDLE,
    firstName: 'Bea Remote',
    lastName: '',
    displayName: 'Bea Remote',
    bio: 'Kites and\nweather',
    bannerURL: `https://${HOST}/banner.png`,
    avatarURL: `https://${HOST}/avatar.png`,
    remote: true,
    url: `https://${HOST}/@bea`,
    postCount: 1,
    ...overrides,
  })

const remotePost = (overrides: Partial<Post> = {}): Post =>
  makePost({
    _id: 'rp1',
    id: 'rp1',
    username: HANDLE,
    firstName: 'Bea Remote',
    lastName: '',
    displayName: 'Bea Remote',
    content: 'Kites over the hill with @guest #kites',
    remote: true,
    url: `https://${HOST}/@bea/1`,
    contentHtml:
      '<p>Kites over the hill</p><p>with <span class="h-card"><a href="https://me.example/profile/guest" class="u-url mention">@<span>guest</span></a></span> ' +
      `<a href="https://${HOST}/tags/kites" class="mention hashtag" rel="tag">#<span>kites</span></a> ` +
      `and <span class="h-card"><a href="https://${HOST}/@cy" class="u-url mention">@<span>cy</span></a></span></p>` +
      '<p><a href="https://example.org/a/very/long/path"><span class="invisible">https://</span><span class="ellipsis">example.org/a/very</span><span class="invisible">/long/path</span></a></p>',
    ...overrides,
  })

declare global {
  var chirpHostile: number | undefined
}

await t.test('a remote post draws its HTML: paragraphs, and links that go where they should', async (t) => {
  // The mention of a person of this server (jsdom's host is localhost) opens their local profile.
  const post = remotePost({
    contentHtml: remotePost().contentHtml?.replace('https://me.example', window.location.origin),
  })
  const { container } = renderAt('/', <PostCard {...cardProps({ post })} />)
  const content = container.querySelector('.post-content') as HTMLElement
  t.equal(content.querySelectorAll('p').length, 3, 'three paragraphs')
  t.equal(content.querySelector('p')?.textContent, 'Kites over the hill')
  const links = [...content.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])
  t.same(links, [
    ['@guest', '/profile/guest'],
    ['#kites', '/tag/kites'],
    ['@cy', `/profile/cy@${HOST}`],
    ['https://example.org/a/very/long/path', 'https://example.org/a/very/long/path'],
  ])
  const outside = within(content).getByRole('link', { name: /example\.org/ })
  t.equal(outside.getAttribute('target'), '_blank', 'a link out opens a new tab')
  t.equal(outside.getAttribute('rel'), 'noopener noreferrer nofollow ugc')
  t.ok(outside.querySelector('.remote-invisible'), 'the hidden part of a long link is kept hidden by its class')
  t.notOk(content.textContent?.includes(post.content), 'the HTML is shown, not the plain text')

  const author = container.querySelector('.post-author') as HTMLElement
  t.equal(author.querySelector('.author-handle')?.textContent, `@${HANDLE}`, 'the author as @name@host')
  t.equal(author.getAttribute('href'), PROFILE, 'their profile here')
  const original = screen.getByRole('link', { name: `Open the original on ${HOST}` })
  t.equal(original.getAttribute('href'), post.url)
  t.equal(original.getAttribute('target'), '_blank')
})

await t.test('nothing hostile in a remote post runs or survives, whatever the server let through', async (t) => {
  globalThis.chirpHostile = undefined
  const hostile =
    '<p onclick="globalThis.chirpHostile=1" style="color:red" class="x">Hi</p>' +
    '<script>globalThis.chirpHostile=2</script>' +
    '<img src="x" onerror="globalThis.chirpHostile=3">' +
    '<a href="javascript:globalThis.chirpHostile=4">tap</a>' +
    '<a href="data:text/html,<script>1</script>">data</a>' +
    '<iframe src="https://evil.example/"></iframe>' +
    '<svg><script>globalThis.chirpHostile=5</script></svg>' +
    '<style>body{display:none}</style>' +
    '<form action="https://evil.example/"><input name="password"><button>Go</button></form>' +
    '<b onmouseover="globalThis.chirpHostile=6">bold</b>'
  const post = remotePost({ contentHtml: hostile })
  const { container } = renderAt('/', <PostCard {...cardProps({ post })} />)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const content = container.querySelector('.post-content') as HTMLElement
  t.equal(globalThis.chirpHostile, undefined, 'no script, handler or link ran')
  t.same(
    [...content.querySelectorAll('*')].map((element) => element.tagName).filter((tag) => !['P', 'SPAN'].includes(tag)),
    [],
    'only paragraphs and spans are left',
  )
  const attributes = [...content.querySelectorAll('*')].flatMap((element) => element.getAttributeNames())
  t.same(attributes, [], 'no attribute survives (no handler, style or class)')
  t.equal(content.textContent, 'HitapdataGobold', 'the text of what is dropped, never the code of a script or style')
  const clicked = content.querySelector('p') as HTMLElement
  fireEvent.click(clicked)
  fireEvent.mouseOver(content.querySelector('span:last-child') as HTMLElement)
  t.equal(globalThis.chirpHostile, undefined, 'clicks and hovers run nothing')
})

await t.test('a local post is drawn as before: its text, no link to an original', async (t) => {
  const post = makePost({ content: '<b>bold</b> @maya' })
  const { container } = renderAt('/', <PostCard {...cardProps({ post })} />)
  t.equal(container.querySelector('.post-content')?.textContent, '<b>bold</b> @maya', 'markup shows as typed')
  t.equal(screen.queryByRole('link', { name: /Open the original/ }), null)
})

const profileRoutes = (person: User, posts: Post[] = [remotePost()]) => ({
  [`GET /api/users/${HANDLE_PATH}`]: () => ok({ user: person }),
  [`GET /api/posts/user/${HANDLE_PATH}`]: () => ok({ posts, nextCursor: null }),
})

await t.test('a remote profile: who they are, their page on their server, their posts', async (t) => {
  const { me } = samples()
  const person = bea({ followers: [summary(makeUser({ username: 'zed', _id: 'id-zed' }))] })
  const { api } = await liveApp(t, me, PROFILE, profileRoutes(person))
  t.ok(await screen.findByRole('heading', { level: 1, name: 'Bea Remote' }))
  const header = screen.getByRole('region', { name: 'Profile' })
  t.ok(within(header).getByText(`@${HANDLE}`), 'the handle with its server')
  t.equal(header.querySelector('.profile-bio')?.textContent, 'Kites and\nweather', 'the bio')
  t.equal(header.querySelector('.profile-banner')?.getAttribute('src'), person.bannerURL, 'the banner')
  t.equal(header.querySelector('.avatar img, img.avatar')?.getAttribute('src'), person.avatarURL, 'the avatar')
  const home = within(header).getByRole('link', { name: `Their profile on ${HOST}` })
  t.equal(home.getAttribute('href'), person.url)
  t.equal(home.getAttribute('target'), '_blank')
  t.ok(within(header).getByRole('button', { name: '1 Follower' }), 'the counts')
  t.match(header.textContent, /1\s*Post/)
  t.ok(within(header).getByText(/^Known here since/), 'when this server first knew them, not a join date')
  t.ok(await screen.findByText('Kites over the hill'), 'their posts, with their HTML')
  t.same(
    screen.getAllByRole('tab').map((tab) => tab.textContent),
    ['Posts', 'Media'],
    'what they like is their server’s to know',
  )
  t.ok(
    api.calls.some((c) => c.path === `/api/posts/user/${HANDLE_PATH}`),
    'their posts asked for by handle',
  )
})

await t.test('a profile address with the @ of a handle escaped opens the same profile', async (t) => {
  const { me } = samples()
  await liveApp(t, me, `/profile/${HANDLE_PATH}`, profileRoutes(bea()))
  t.ok(await screen.findByRole('heading', { level: 1, name: 'Bea Remote' }))
})

await t.test('following a locked remote person makes a request; block, mute and report take their id', async (t) => {
  const { me } = samples()
  const person = bea({ locked: true })
  const { api } = await liveApp(t, me, PROFILE, {
    ...profileRoutes(person),
    'POST /api/users/follow/id-bea': () => ok({ user: { ...person, requested: true }, requested: true }),
    'POST /api/users/unfollow/id-bea': () => ok({ user: me, followUser: person }),
    'POST /api/users/block/id-bea': () => ok({ user: summary(person) }),
    'POST /api/users/mute/id-bea': () => ok({ user: summary(person) }),
    'POST /api/reports': () => ({ status: 201, body: { report: { _id: 'r1' } } }),
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Follow Bea Remote' }))
  t.ok(await screen.findByRole('button', { name: 'Requested: follow request to Bea Remote' }), 'pending')
  t.ok(screen.getByText(new RegExp(`Your request waits for @${HANDLE}'s answer`)))
  await until(() => users.pending['id-bea'] === undefined)
  fireEvent.click(screen.getByRole('button', { name: 'Requested: follow request to Bea Remote' }))
  t.ok(await screen.findByRole('button', { name: 'Follow Bea Remote' }), 'withdrawn')
  await until(() => users.pending['id-bea'] === undefined)

  fireEvent.click(screen.getByRole('button', { name: 'Profile options' }))
  fireEvent.click(screen.getByRole('menuitem', { name: `Mute @${HANDLE}` }))
  const mute = screen.getByRole('alertdialog', { name: `Mute @${HANDLE}?` })
  fireEvent.click(within(mute).getByRole('button', { name: 'Mute' }))
  await until(() => api.calls.some((c) => c.path === '/api/users/mute/id-bea'))

  fireEvent.click(screen.getByRole('button', { name: 'Profile options' }))
  fireEvent.click(screen.getByRole('menuitem', { name: `Report @${HANDLE}` }))
  const report = screen.getByRole('dialog', { name: 'Report this account' })
  fireEvent.click(within(report).getByRole('radio', { name: /Spam/ }))
  fireEvent.click(within(report).getByRole('button', { name: 'Send report' }))
  await until(() => api.calls.some((c) => c.path === '/api/reports'))
  t.same(api.calls.find((c) => c.path === '/api/reports')?.body, {
    targetType: 'user',
    targetId: 'id-bea',
    category: 'spam',
  })

  fireEvent.click(screen.getByRole('button', { name: 'Profile options' }))
  fireEvent.click(screen.getByRole('menuitem', { name: `Block @${HANDLE}` }))
  const block = screen.getByRole('alertdialog', { name: `Block @${HANDLE}?` })
  fireEvent.click(within(block).getByRole('button', { name: 'Block' }))
  await until(() => api.calls.some((c) => c.path === '/api/users/block/id-bea'))
  t.same(
    api.calls.filter((c) => c.method === 'POST' && c.path !== '/api/events/ticket').map((c) => c.path),
    [
      '/api/users/follow/id-bea',
      '/api/users/unfollow/id-bea',
      '/api/users/mute/id-bea',
      '/api/reports',
      '/api/users/block/id-bea',
    ],
  )
})

await t.test('searching @name@host finds the person through the server, and opens their profile', async (t) => {
  const { me } = samples()
  const person = bea()
  const { api } = await liveApp(t, me, `/search?q=${encodeURIComponent(`@${HANDLE}`)}&type=users`, {
    ...profileRoutes(person),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
  })
  const found = await screen.findByRole('list', { name: 'People found' })
  const link = within(found).getByRole('link', { name: /Bea Remote/ })
  t.ok(within(found).getByText('Kites and weather', { normalizer: (s) => s.replace(/\s+/g, ' ') }), 'their bio')
  t.notOk(
    api.calls.some((c) => c.path === '/api/search'),
    'a full handle is looked up, not searched for among names',
  )
  fireEvent.click(link)
  t.ok(await screen.findByRole('heading', { level: 1, name: 'Bea Remote' }), 'their profile opens')
})

await t.test('a handle no server knows finds nobody; a failing lookup can be tried again', async (t) => {
  const { me } = samples()
  let answer = fail(404, 'User not found')
  await liveApp(t, me, `/search?q=${encodeURIComponent('@nobody@remote.example')}&type=users`, {
    'GET /api/users/nobody%40remote.example': () => answer,
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
  })
  t.ok(await screen.findByText('Nobody matches “@nobody@remote.example”.'))
  cleanup()
  answer = fail(502, 'Bad gateway')
  resetAll()
  await liveApp(t, me, `/search?q=${encodeURIComponent('@nobody@remote.example')}&type=users`, {
    'GET /api/users/nobody%40remote.example': () => answer,
  })
  const retry = await screen.findByRole('button', { name: 'Try again' })
  answer = ok({ user: bea({ username: 'nobody@remote.example', _id: 'id-nb', displayName: 'Now Found' }) })
  fireEvent.click(retry)
  t.ok(await screen.findByRole('link', { name: /Now Found/ }))
})
