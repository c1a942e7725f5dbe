import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { PostItem } from '../../client/pages/post-item.js'
import { BlockedMutedSection } from '../../client/pages/settings/blocked-muted-section.js'
import { postCache } from '../../client/state/post-cache.js'
import { reset as resetRelations } from '../../client/state/relations.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, summary, until } from './helpers.js'

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
  renderAt('/settings', <BlockedMutedSection />)
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
