import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { PostItem } from '../../client/pages/post-item.js'
import { ProfilePage } from '../../client/pages/profile-page.js'
import { SettingsPage } from '../../client/pages/settings-page.js'
import { postCache } from '../../client/state/post-cache.js'
import { reset as resetRelations } from '../../client/state/relations.js'
import {
  makeComment,
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  summary,
  until,
} from './helpers.js'

/** Mute and Block from a post's menu, and the Settings section that lists both with their undo. */
t.beforeEach(() => {
  resetAll()
  resetRelations()
})
t.afterEach(() => {
  cleanup()
  resetAll()
  resetRelations()
})

const maya = makeUser({ username: 'maya' })

for (const kind of ['Block', 'Mute'] as const) {
  await t.test(`${kind} in someone else's post menu asks first, then hides their posts`, async (t) => {
    const post = makePost({ _id: 'p1', id: 'p1', username: 'maya', content: 'from maya' })
    const api = stubApi({
      'GET /api/users/maya': () => ok({ user: maya }),
      [`POST /api/users/${kind.toLowerCase()}/${maya._id}`]: () => ok({ user: summary(maya) }),
    })
    t.teardown(api.restore)
    signInAs(makeUser({ username: 'guest' }))
    postCache.byId[post._id] = post
    renderAt('/', <PostItem postId="p1" />)
    fireEvent.click(screen.getByRole('button', { name: 'Post options' }))
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: `${kind} @maya` }))
    const dialog = screen.getByRole('alertdialog', { name: `${kind} @maya?` })
    t.match(dialog.textContent, kind === 'Block' ? /stop following each other/ : /won't know/, 'says what will happen')
    t.equal(api.calls.length, 0, 'nothing is sent before the confirmation')
    fireEvent.click(within(dialog).getByRole('button', { name: kind }))
    await until(() => postCache.byId.p1 === undefined)
    t.same(
      api.calls.map((call) => `${call.method} ${call.path}`),
      ['GET /api/users/maya', `POST /api/users/${kind.toLowerCase()}/${maya._id}`],
      'the person is looked up, then blocked or muted',
    )
    t.equal(screen.queryByText('from maya'), null, 'the post is gone from the screen')
  })
}

for (const kind of ['Block', 'Mute'] as const) {
  await t.test(`${kind} in someone else's comment menu asks first, then hides their comments`, async (t) => {
    const post = makePost({ _id: 'p3', id: 'p3', username: 'ada', content: 'from ada' })
    const thread = [makeComment('from maya'), makeComment('my reply', { username: 'guest', firstName: 'Guest' })]
    const api = stubApi({
      'GET /api/comments/p3': () => ok({ comments: structuredClone(thread), nextCursor: null }),
      'GET /api/users/maya': () => ok({ user: maya }),
      [`POST /api/users/${kind.toLowerCase()}/${maya._id}`]: () => ok({ user: summary(maya) }),
    })
    t.teardown(api.restore)
    signInAs(makeUser({ username: 'guest' }))
    postCache.byId[post._id] = post
    renderAt('/', <PostItem postId="p3" detail />)
    const region = await screen.findByRole('region', { name: 'Comments' })
    await within(region).findByText('from maya')
    const [theirs, mine] = within(region).getAllByRole('listitem')
    if (!theirs || !mine) throw new Error('both comments are drawn')
    fireEvent.click(within(mine).getByRole('button', { name: 'Comment options' }))
    t.same(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
      ['Edit', 'Delete'],
      'my own comment offers neither',
    )
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' })
    fireEvent.click(within(theirs).getByRole('button', { name: 'Comment options' }))
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: `${kind} @maya` }))
    const dialog = screen.getByRole('alertdialog', { name: `${kind} @maya?` })
    t.match(dialog.textContent, kind === 'Block' ? /posts or comments/ : /posts and comments will leave/, 'says what')
    t.notOk(
      api.calls.some((call) => call.method === 'POST'),
      'nothing is sent before the confirmation',
    )
    fireEvent.click(within(dialog).getByRole('button', { name: kind }))
    await until(() => within(region).queryByText('from maya') === null)
    t.ok(within(region).getByText('my reply'), 'the other comments stay')
    t.ok(screen.getByText('from ada'), 'and so does the post')
    t.ok(api.calls.some((call) => call.path === `/api/users/${kind.toLowerCase()}/${maya._id}`))
  })

  await t.test(`${kind} in a profile's menu asks first, then their posts leave the profile`, async (t) => {
    const api = stubApi({
      'GET /api/users/maya': () => ok({ user: maya }),
      'GET /api/posts/user/maya': () =>
        ok({
          posts: [makePost({ _id: 'p4', id: 'p4', username: 'maya', content: 'on her profile' })],
          nextCursor: null,
        }),
      [`POST /api/users/${kind.toLowerCase()}/${maya._id}`]: () => ok({ user: summary(maya) }),
    })
    t.teardown(api.restore)
    signInAs(makeUser({ username: 'guest' }))
    renderAt('/profile/maya', <ProfilePage username="maya" />)
    await screen.findByText('on her profile')
    fireEvent.click(screen.getByRole('button', { name: 'Profile options' }))
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: `${kind} @maya` }))
    const dialog = screen.getByRole('alertdialog', { name: `${kind} @maya?` })
    t.match(dialog.textContent, /Settings/, 'says where to undo it')
    t.notOk(
      api.calls.some((call) => call.method === 'POST'),
      'nothing is sent before the confirmation',
    )
    const reads = api.calls.filter((call) => call.path === '/api/users/maya').length
    fireEvent.click(within(dialog).getByRole('button', { name: kind }))
    await until(() => screen.queryByText('on her profile') === null)
    await until(() => api.calls.filter((call) => call.path === '/api/users/maya').length > reads)
    t.pass('the profile is read again, its follows changed')
    t.ok(screen.getByRole('button', { name: 'Profile options' }), 'the profile stays open to them, to undo it')
  })
}

await t.test('a mute asks for how long, and sends the length chosen; a block asks nothing of the kind', async (t) => {
  const mutes: unknown[] = []
  const api = stubApi({
    'GET /api/users/maya': () => ok({ user: maya }),
    'GET /api/posts/user/maya': () => ok({ posts: [], nextCursor: null }),
    [`POST /api/users/mute/${maya._id}`]: (request) => {
      mutes.push(request.body)
      return ok({ user: summary(maya) })
    },
  })
  t.teardown(api.restore)
  signInAs(makeUser({ username: 'guest' }))
  renderAt('/profile/maya', <ProfilePage username="maya" />)
  const muteFor = async (choice: string | undefined) => {
    fireEvent.click(await screen.findByRole('button', { name: 'Profile options' }))
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Mute @maya' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Mute @maya?' })
    const group = within(dialog).getByRole('group', { name: 'Mute for' })
    t.same(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
      ['1 hour', '1 day', '7 days', 'Until I unmute'],
      'offers an hour, a day, a week, or until unmuted',
    )
    t.ok(
      within(group).getByRole('radio', { name: 'Until I unmute' }).matches(':checked'),
      'until unmuted unless chosen',
    )
    if (choice) fireEvent.click(within(group).getByRole('radio', { name: choice }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mute' }))
    await until(() => screen.queryByRole('alertdialog') === null)
  }
  await muteFor('1 day')
  await until(() => mutes.length === 1)
  await muteFor('1 hour')
  await until(() => mutes.length === 2)
  await muteFor(undefined)
  await until(() => mutes.length === 3)
  t.same(mutes, [{ duration: 86_400 }, { duration: 3_600 }, {}], 'each mute with the length chosen, the last for good')

  fireEvent.click(screen.getByRole('button', { name: 'Profile options' }))
  fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Block @maya' }))
  const block = screen.getByRole('alertdialog', { name: 'Block @maya?' })
  t.equal(within(block).queryByRole('radio'), null, 'a block has no length')
  fireEvent.click(within(block).getByRole('button', { name: 'Cancel' }))
})

await t.test('my own profile has no Mute or Block', async (t) => {
  const me = makeUser({ username: 'guest' })
  const api = stubApi({
    'GET /api/users/guest': () => ok({ user: me }),
    'GET /api/posts/user/guest': () => ok({ posts: [], nextCursor: null }),
  })
  t.teardown(api.restore)
  signInAs(me)
  renderAt('/profile/guest', <ProfilePage username="guest" />)
  await screen.findByRole('button', { name: 'Edit Profile' })
  t.equal(screen.queryByRole('button', { name: 'Profile options' }), null)
})

await t.test('Cancel leaves everything as it was', async (t) => {
  const post = makePost({ _id: 'p2', id: 'p2', username: 'maya' })
  const api = stubApi({})
  t.teardown(api.restore)
  signInAs(makeUser({ username: 'guest' }))
  postCache.byId[post._id] = post
  renderAt('/', <PostItem postId="p2" />)
  fireEvent.click(screen.getByRole('button', { name: 'Post options' }))
  fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Block @maya' }))
  fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }))
  t.equal(api.calls.length, 0, 'nothing sent')
  t.ok(postCache.byId.p2, 'the post stays')
})

await t.test('Settings lists blocked and muted people, each with an undo that takes them off', async (t) => {
  const ada = makeUser({ username: 'ada' })
  const api = stubApi({
    'GET /api/users/blocks': () => ok({ users: [summary(maya)], nextCursor: null }),
    'GET /api/users/mutes': () =>
      ok({ users: [{ ...summary(ada), mutedUntil: '2030-01-01T00:00:00.000Z' }], nextCursor: null }),
    [`POST /api/users/unblock/${maya._id}`]: () => ok({ user: summary(maya) }),
    [`POST /api/users/unmute/${ada._id}`]: () => ok({ user: summary(ada) }),
  })
  t.teardown(api.restore)
  signInAs(makeUser({ username: 'guest' }))
  renderAt('/settings', <SettingsPage />)
  t.ok(screen.getByRole('heading', { name: 'Blocked and muted people' }))
  await until(() => screen.queryByRole('button', { name: 'Unblock @maya' }) !== null)
  const muted = screen.getByRole('list', { name: 'Muted people' })
  t.match(muted.textContent, /@ada/, 'the muted person')
  t.match(muted.textContent, /until/, 'with when the mute ends')
  fireEvent.click(screen.getByRole('button', { name: 'Unblock @maya' }))
  await until(() => screen.queryByRole('button', { name: 'Unblock @maya' }) === null)
  t.ok(screen.getByText('You have not blocked anyone.'), 'the blocked list is empty')
  fireEvent.click(screen.getByRole('button', { name: 'Unmute @ada' }))
  await until(() => screen.queryByText('You have not muted anyone.') !== null)
  t.ok(
    api.calls.some((call) => call.path === `/api/users/unmute/${ada._id}`),
    'the unmute was sent',
  )
})
