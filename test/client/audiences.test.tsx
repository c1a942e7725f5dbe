import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import type { Post } from '../../client/api/types.js'
import { App } from '../../client/app.js'
import { PostCard } from '../../client/components/post-card.js'
import { PostForm } from '../../client/components/post-form.js'
import { insertPost, lists, loadExplore, loadHome, loadProfilePosts, loadTagPosts } from '../../client/state/lists.js'
import { createPost } from '../../client/state/posts.js'
import { session } from '../../client/state/session.js'
import {
  cardProps,
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  settingsApi,
  signInAs,
  stubApi,
  until,
} from './helpers.js'

/** Audiences in the client (DECISIONS §12): the composer's picker, a post's audience, what may be shared, Settings. */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const noUpload = async () => null
const audienceSelect = () => screen.getByRole('combobox', { name: 'Audience' }) as HTMLSelectElement

await t.test("the composer's audience picker starts at the default, explains each choice and sends it", async (t) => {
  const sent: unknown[] = []
  const view = renderAt(
    '/',
    <PostForm
      resetAfterSubmit
      audience="followers"
      onSubmit={async (draft) => {
        sent.push(draft)
        return true
      }}
      onUpload={noUpload}
      onFileError={() => {}}
    />,
  )
  const select = audienceSelect()
  t.equal(select.value, 'followers', "the account's default audience")
  t.same(
    Array.from(select.options, (o) => o.textContent),
    ['Public', 'Unlisted', 'Followers only', 'Direct'],
  )
  const hint = () => document.getElementById(select.getAttribute('aria-describedby') ?? '')?.textContent
  t.match(hint(), /Only your followers and the people you mention/, 'what the choice means, read with the select')
  fireEvent.change(select, { target: { value: 'direct' } })
  t.match(hint(), /Only the people you mention can see it, in their Messages/)
  fireEvent.change(screen.getByLabelText('Post text'), { target: { value: '@maya hello' } })
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  await until(() => sent.length === 1)
  t.match(sent[0], { content: '@maya hello', visibility: 'direct' })
  await until(() => audienceSelect().value === 'followers')
  t.pass('after sending, the picker is back at the default')
  const results = await axe.run(view.container)
  t.strictSame(
    results.violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )
})

await t.test('the edit form offers no audience: an edit keeps it', async (t) => {
  renderAt('/', <PostForm onSubmit={async () => true} onUpload={noUpload} onFileError={() => {}} />)
  t.equal(screen.queryByRole('combobox', { name: 'Audience' }), null)
})

await t.test('a new post is sent with the audience chosen, and the home composer starts at my default', async (t) => {
  const me = makeUser({ username: 'guest', email: 'guest@example.com', defaultVisibility: 'unlisted' })
  signInAs(me)
  const api = stubApi({
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
    'POST /api/posts': (request) => {
      const { postData } = request.body as { postData: Partial<Post> }
      const author = { username: 'guest', firstName: 'Guest', lastName: 'User' }
      return ok({ post: makePost({ ...author, content: postData.content, visibility: postData.visibility }) })
    },
  })
  t.teardown(api.restore)
  renderAt('/', <App />)
  await screen.findByRole('heading', { name: 'Latest Posts' })
  t.equal(audienceSelect().value, 'unlisted')
  const text = screen.getByLabelText('Post text')
  fireEvent.change(text, { target: { value: 'For the people who look' } })
  fireEvent.click(within(text.closest('form') as HTMLElement).getByRole('button', { name: 'Post' }))
  await until(() => api.calls.some((c) => c.method === 'POST' && c.path === '/api/posts'))
  t.match(api.calls.find((c) => c.path === '/api/posts')?.body, {
    postData: { content: 'For the people who look', visibility: 'unlisted' },
  })
  const card = await screen.findByRole('article', { name: 'Post by Guest User' })
  t.ok(within(card).getByRole('img', { name: 'Audience: Unlisted' }), 'the post says its audience')
})

await t.test('a post shows its audience when it is not public, as an icon with a name', async (t) => {
  for (const [visibility, name] of [
    ['unlisted', 'Audience: Unlisted'],
    ['followers', 'Audience: Followers only'],
    ['direct', 'Audience: Direct message'],
  ] as const) {
    renderAt('/', <PostCard {...cardProps({ post: makePost({ visibility }) })} />)
    const badge = screen.getByRole('img', { name })
    t.ok(badge.getAttribute('title'), `${visibility}: its name shows on hover too`)
    cleanup()
  }
  renderAt('/', <PostCard {...cardProps({ post: makePost({ visibility: 'public' }) })} />)
  t.equal(screen.queryByRole('img', { name: /^Audience/ }), null, 'a public post says nothing')
})

await t.test("someone else's followers-only or direct post cannot be reposted or quoted, and says why", async (t) => {
  for (const [visibility, reason] of [
    ['followers', "A followers-only post can't be reposted or quoted."],
    ['direct', "A direct message can't be reposted or quoted."],
  ] as const) {
    const chosen: string[] = []
    const props = cardProps({
      post: makePost({ visibility, repostCount: 0 }),
      onToggleRepost: () => chosen.push('repost'),
      onQuote: () => chosen.push('quote'),
    })
    const view = renderAt('/', <PostCard {...props} />)
    const button = screen.getByRole('button', { name: 'Repost, 0 reposts' })
    t.equal(button.getAttribute('aria-disabled'), 'true', `${visibility}: the button is unavailable`)
    t.equal(button.getAttribute('aria-haspopup'), null, 'and opens no menu')
    t.equal(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent, reason)
    t.equal(button.getAttribute('title'), reason, 'the reason shows on hover too')
    fireEvent.click(button)
    t.equal(screen.queryByRole('menu'), null)
    t.same(chosen, [])
    const results = await axe.run(view.container)
    t.strictSame(
      results.violations.map((v) => v.id),
      [],
      'axe finds nothing',
    )
    cleanup()
  }
})

await t.test('my own followers-only post cannot be reposted, but I may quote it', async (t) => {
  const chosen: string[] = []
  const props = cardProps({
    me: 'maya',
    post: makePost({ username: 'maya', visibility: 'followers' }),
    onToggleRepost: () => chosen.push('repost'),
    onQuote: () => chosen.push('quote'),
  })
  renderAt('/', <PostCard {...props} />)
  fireEvent.click(screen.getByRole('button', { name: 'Repost, 0 reposts' }))
  const repost = screen.getByRole('menuitem', { name: /^Repost/ })
  t.equal(repost.getAttribute('aria-disabled'), 'true')
  t.match(repost.textContent, /A followers-only post can't be reposted\./)
  fireEvent.click(repost)
  t.same(chosen, [], 'an unavailable item does nothing')
  fireEvent.click(screen.getByRole('menuitem', { name: 'Quote' }))
  t.same(chosen, ['quote'])
})

await t.test('a live post enters only the lists its audience belongs in', async (t) => {
  signInAs(makeUser({ username: 'guest' }))
  const empty = () => ok({ posts: [], nextCursor: null })
  const api = stubApi({
    'GET /api/feed': empty,
    'GET /api/posts': empty,
    'GET /api/posts/user/maya': empty,
    'GET /api/posts/tag/tea': empty,
  })
  t.teardown(api.restore)
  await Promise.all([loadHome(), loadExplore(), loadProfilePosts('maya'), loadTagPosts('tea')])
  const shown = () => ({
    home: [...lists.home.items],
    explore: [...lists.explore.items],
    profile: [...lists.profile.items],
    tag: [...lists.tag.items],
  })
  insertPost(makePost({ _id: 'pub', content: 'about #tea', visibility: 'public' }), { inHome: true })
  insertPost(makePost({ _id: 'unl', content: 'about #tea', visibility: 'unlisted' }), { inHome: true })
  insertPost(makePost({ _id: 'fol', content: 'about #tea', visibility: 'followers' }), { inHome: true })
  t.equal(insertPost(makePost({ _id: 'dm', content: '@guest #tea', visibility: 'direct' }), { inHome: true }), false)
  t.same(shown(), {
    home: ['fol', 'unl', 'pub'],
    explore: ['pub'],
    profile: ['fol', 'unl', 'pub'],
    tag: ['pub'],
  })
})

await t.test('a direct post written in the composer goes to no list of posts', async (t) => {
  signInAs(makeUser({ username: 'guest' }))
  const api = stubApi({
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'POST /api/posts': () => ok({ post: makePost({ _id: 'dm', username: 'guest', visibility: 'direct' }) }),
  })
  t.teardown(api.restore)
  await loadHome()
  t.ok(await createPost({ content: '@maya psst', media: [], visibility: 'direct' }))
  t.same(lists.home.items, [], 'not in my home feed')
  t.match(api.calls.at(-1)?.body, { postData: { visibility: 'direct' } })
})

await t.test(
  'Settings: the default audience and the lock are saved as they change, with what each means',
  async (t) => {
    const me = makeUser({ username: 'ada', email: 'ada@example.com', defaultVisibility: 'public', locked: false })
    signInAs(me)
    const api = settingsApi(me)
    t.teardown(api.restore)
    renderAt('/settings', <App />)
    const section = (await screen.findByRole('heading', { name: 'Audience and followers' })).closest('section')
    if (!section) throw new Error('no section')
    const inside = within(section)
    const select = inside.getByRole('combobox', { name: 'Default audience' }) as HTMLSelectElement
    t.equal(select.value, 'public')
    fireEvent.change(select, { target: { value: 'followers' } })
    await until(() => session.user?.defaultVisibility === 'followers')
    t.same(api.calls.filter((c) => c.path === '/api/users/edit').at(-1)?.body, {
      userData: { defaultVisibility: 'followers' },
    })
    t.ok(await screen.findByText('Your default audience was saved'))

    const lock = inside.getByRole('checkbox', { name: 'Lock account' }) as HTMLInputElement
    t.equal(lock.checked, false)
    const hint = () => document.getElementById(lock.getAttribute('aria-describedby') ?? '')?.textContent
    t.match(hint(), /Anyone can follow you\. Lock your account to approve each follower/)
    fireEvent.click(lock)
    await until(() => session.user?.locked === true)
    t.same(api.calls.filter((c) => c.path === '/api/users/edit').at(-1)?.body, { userData: { locked: true } })
    await until(() => (inside.getByRole('checkbox', { name: 'Lock account' }) as HTMLInputElement).checked)
    t.match(hint(), /Unlocking accepts every request still waiting/)
    const results = await axe.run(section)
    t.strictSame(
      results.violations.map((v) => v.id),
      [],
      'axe finds nothing',
    )
  },
)
