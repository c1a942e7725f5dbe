import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import type { Notification, User } from '../../client/api/types.js'
import { groupNotifications, GROUP_WINDOW_MS } from '../../client/lib/notification-groups.js'
import { fakeIntersectionObserver, makePost, makeUser, ok, resetAll, summary, until, expectTitle } from './helpers.js'
import { liveApp } from './live-app.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'guest' })
const maya = makeUser({ username: 'maya.lin', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' })
const theo = makeUser({ username: 'theo', firstName: 'Theo', lastName: 'Park', _id: 'id-theo' })
const ada = makeUser({ username: 'ada', firstName: 'Ada', lastName: 'Byron', _id: 'id-ada' })
const post = { _id: 'p1', content: 'Tea at noon', mediaUrl: '' }
const other = { _id: 'p2', content: 'Another post', mediaUrl: '' }

/** A little in the past, so that the page's clock (to the second) is never before it. */
const START = Date.now() - 2000
let serial = 0
/** A notification made `minutesAgo` before the test started, unread unless told. */
function note(
  type: Notification['type'],
  actor: User,
  minutesAgo: number,
  extra: Partial<Notification> = {},
): Notification {
  serial += 1
  return {
    _id: `n${serial}`,
    type,
    actor: summary(actor),
    createdAt: new Date(START - minutesAgo * 60_000).toISOString(),
    read: false,
    ...extra,
  }
}

const nav = () => screen.getByRole('navigation', { name: 'Main' })
const bell = () => within(nav()).getByRole('link', { name: /^Notifications/ })
/** Waits for the Notifications link to be named so: its badge is hidden from screen readers, which hear the count after the name. */
const bellNamed = async (name: string) =>
  within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('link', { name })

await t.test('likes of one post and follows join one row; mentions and replies stand alone', async (t) => {
  const rows = groupNotifications([
    note('like', maya, 1, { post }),
    note('mention', theo, 2, { post: other }),
    note('like', theo, 3, { post }),
    note('follow', ada, 4),
    note('like', ada, 5, { post: other }),
    note('like', ada, 6, { post, read: true }),
    note('follow', maya, 7, { read: true }),
    note('comment', maya, 8, { post, comment: { _id: 'c1', text: 'Lovely' } }),
    note('comment', theo, 9, { post, comment: { _id: 'c2', text: 'Agreed' } }),
    note('like', maya, 10, { post, read: true }),
  ])
  t.same(
    rows.map((r) => [r.type, r.actors.map((a) => a.username), r.unread]),
    [
      ['like', ['maya.lin', 'theo', 'ada'], true],
      ['mention', ['theo'], true],
      ['follow', ['ada', 'maya.lin'], true],
      ['like', ['ada'], true],
      ['comment', ['maya.lin'], true],
      ['comment', ['theo'], true],
    ],
    'each person once, the row at its newest, unread while any part is',
  )
  const apart = groupNotifications([
    note('like', maya, 0, { post }),
    note('like', theo, GROUP_WINDOW_MS / 60_000 + 1, { post }),
  ])
  t.equal(apart.length, 2, 'a like from more than a day before the newest is news of its own')
})

await t.test(
  'the page: grouped rows newest first, each opening its post or profile; opening it marks them read',
  async (t) => {
    const observers = fakeIntersectionObserver(t)
    const first = [
      note('like', maya, 1, { post }),
      note('like', theo, 2, { post }),
      note('like', ada, 3, { post }),
      note('mention', theo, 4, { post: other, comment: { _id: 'c9', text: 'Ask @guest about it' } }),
      note('follow', maya, 5),
    ]
    const second = [note('comment', ada, 60, { post, comment: { _id: 'c1', text: 'An older reply' }, read: true })]
    let unread = 5
    const { api } = await liveApp(t, me, '/explore', {
      'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
      'GET /api/notifications': (req) =>
        ok(
          req.query.get('cursor') === 'page-2'
            ? { notifications: second, nextCursor: null, unread }
            : {
                notifications: req.query.get('limit') === '1' ? first.slice(0, 1) : first,
                nextCursor: 'page-2',
                unread,
              },
        ),
      'POST /api/notifications/read': () => {
        unread = 0
        return ok({ unread })
      },
    })
    await bellNamed('Notifications, 5 unread')
    t.equal(bell().querySelector('.nav-badge')?.textContent, '5', 'the badge')
    await until(() => document.title === '(5) Explore / Chirp')
    t.notOk(
      api.calls.some((c) => c.path === '/api/notifications/read'),
      'nothing is marked read before the page is opened',
    )

    fireEvent.click(bell())
    const list = await screen.findByRole('list', { name: 'Notifications' })
    const rows = () => within(list).getAllByRole('listitem')
    t.same(
      rows().map((row) => row.textContent),
      [
        'New: Maya Lin and 2 others liked your post · 1mTea at noon',
        'New: Theo Park @theo mentioned you in a reply · 4mAsk @guest about itReply',
        'New: Maya Lin @maya.lin followed you · 5mFollow',
      ],
    )
    const links = rows().map((row) => within(row).getByRole('link').getAttribute('href'))
    t.same(links, ['/post-detail/p1', '/post-detail/p2', '/profile/maya.lin'])

    await until(() => api.calls.some((c) => c.path === '/api/notifications/read'))
    t.same(
      api.calls.find((c) => c.path === '/api/notifications/read')?.body,
      { before: first[0]!._id },
      'up to the newest shown',
    )
    await until(() => document.title === 'Notifications / Chirp')
    t.ok(await bellNamed('Notifications'), 'no count')
    t.equal(bell().querySelector('.nav-badge')?.textContent, undefined, 'the badge is gone')

    observers.scrollToEnd()
    await screen.findByText('An older reply')
    t.ok(screen.getByText("That's every notification."))
    t.same(
      api.calls
        .filter((c) => c.path === '/api/notifications')
        .map((c) => [c.query.get('limit'), c.query.get('cursor')]),
      [
        ['1', null],
        ['20', null],
        ['20', 'page-2'],
      ],
      'the count on sign-in, then pages of 20',
    )
    t.equal(rows().length, 4)
    t.notOk(rows()[3]!.textContent?.startsWith('New:'), 'a read one says nothing of being new')
  },
)

await t.test('the badge and the tab title follow notification events live', async (t) => {
  const { send, api } = await liveApp(t, me, '/explore', {
    'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'POST /api/notifications/read': () => ok({ unread: 0 }),
  })
  await until(() => api.calls.some((c) => c.path === '/api/notifications'))
  t.equal(bell().querySelector('.nav-badge')?.textContent, undefined)
  send('notification.created', { ...note('mention', maya, 0, { post }), unread: 1 })
  await bellNamed('Notifications, 1 unread')
  await expectTitle(t, '(1) Explore / Chirp')
  send('notification.created', { ...note('like', maya, 0, { post }), unread: 120 })
  await bellNamed('Notifications, 120 unread')
  t.equal(bell().querySelector('.nav-badge')?.textContent, '99+', 'a badge stays small')
  send('notification.read', { unread: 0 })
  await bellNamed('Notifications')
  await expectTitle(t, 'Explore / Chirp')

  fireEvent.click(bell())
  t.ok(
    await screen.findByText('Nothing yet. Likes, replies, mentions and new followers will show up here.'),
    'the empty state',
  )
  const live = note('comment', theo, 0, { post, comment: { _id: 'c5', text: 'Fresh reply' } })
  send('notification.created', { ...live, unread: 1 })
  t.ok(await screen.findByText('Fresh reply'), 'a new one shows on top of the open page')
  await until(() => api.calls.some((c) => c.path === '/api/notifications/read'))
  t.same(
    api.calls.find((c) => c.path === '/api/notifications/read')?.body,
    { before: live._id },
    'and, being seen, is marked read',
  )
})

await t.test('a count asked for before the page marked everything read does not bring the badge back', async (t) => {
  let answerCount: () => void = () => {}
  const held = new Promise<void>((resolve) => (answerCount = resolve))
  const list = [note('follow', theo, 1)]
  const { api } = await liveApp(t, me, '/notifications', {
    'GET /api/notifications': async (req) => {
      if (req.query.get('limit') === '1') await held
      return ok({ notifications: list, nextCursor: null, unread: 1 })
    },
    'POST /api/notifications/read': () => ok({ unread: 0 }),
  })
  await until(() => api.calls.some((c) => c.path === '/api/notifications/read'))
  await until(() => document.title === 'Notifications / Chirp')
  answerCount()
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(bell().querySelector('.nav-badge')?.textContent, undefined, 'the older answer (1 unread) is not taken')
})

await t.test('All and Mentions: the Mentions tab shows only mentions, reading on for more', async (t) => {
  const observers = fakeIntersectionObserver(t)
  const firstPage = [note('like', maya, 1, { post }), note('follow', theo, 2)]
  const secondPage = [note('mention', ada, 30, { post: other })]
  const { api } = await liveApp(t, me, '/notifications', {
    'GET /api/notifications': (req) =>
      ok(
        req.query.get('cursor') === 'page-2'
          ? { notifications: secondPage, nextCursor: null, unread: 0 }
          : { notifications: firstPage, nextCursor: 'page-2', unread: 0 },
      ),
  })
  await screen.findByText('Tea at noon')
  const tabs = screen.getByRole('tablist', { name: 'Show' })
  t.equal(within(tabs).getByRole('tab', { name: 'All' }).getAttribute('aria-selected'), 'true')
  fireEvent.click(within(tabs).getByRole('tab', { name: 'Mentions' }))
  t.equal(screen.getByRole('tabpanel').getAttribute('aria-label'), 'Mentions')
  t.equal(screen.queryByText('Tea at noon'), null, 'a like is not a mention')
  observers.scrollToEnd()
  t.ok(await screen.findByText('Another post'), 'the next page is read for its mentions')
  await screen.findByText("That's every mention.")
  t.same(
    within(screen.getByRole('list', { name: 'Notifications' }))
      .getAllByRole('listitem')
      .map((row) => within(row).getByRole('link').textContent),
    ['New: Ada Byron @ada mentioned you in a post · 30mAnother post'],
  )
  fireEvent.keyDown(tabs, { key: 'ArrowLeft' })
  t.ok(await screen.findByText('Tea at noon'), 'All shows everything again')
  t.equal(api.calls.filter((c) => c.path === '/api/notifications' && c.query.get('limit') === '20').length, 2)
})

await t.test('a follow row offers to follow back; once followed the button goes', async (t) => {
  const followed = { ...me, following: [summary(theo)] }
  const { api } = await liveApp(t, me, '/notifications', {
    'GET /api/notifications': () => ok({ notifications: [note('follow', theo, 1)], nextCursor: null, unread: 0 }),
    'POST /api/users/follow/id-theo': () => ok({ user: followed, followUser: { ...theo, followers: [summary(me)] } }),
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Follow Theo Park' }))
  await until(() => screen.queryByRole('button', { name: 'Follow Theo Park' }) === null)
  t.ok(api.calls.some((c) => c.method === 'POST' && c.path === '/api/users/follow/id-theo'))
})

await t.test('a mention is answered from the list, as a comment on its post naming who mentioned me', async (t) => {
  const mentioned = note('mention', maya, 1, { post: other, comment: { _id: 'c7', text: 'What do you think @guest?' } })
  const { api } = await liveApp(t, me, '/notifications', {
    'GET /api/notifications': () => ok({ notifications: [mentioned], nextCursor: null, unread: 0 }),
    'POST /api/comments/add/p2': (req) =>
      ok({ post: { ...makePost({ _id: 'p2', id: 'p2' }), comments: [], commentCount: 1 }, echoed: req.body }),
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Reply to Maya Lin' }))
  const box = screen.getByRole('textbox', { name: 'Reply to Maya Lin' }) as HTMLTextAreaElement
  t.equal(box.value, '@maya.lin ', 'the reply starts by naming them')
  t.equal(document.activeElement, box, 'and the caret is in it')
  fireEvent.change(box, { target: { value: '@maya.lin I think so too' } })
  fireEvent.click(screen.getByRole('button', { name: 'Send reply' }))
  await screen.findByText('Your reply was sent')
  await until(() => screen.queryByRole('textbox', { name: 'Reply to Maya Lin' }) === null)
  t.same(api.calls.find((c) => c.path === '/api/comments/add/p2')?.body, {
    commentData: { text: '@maya.lin I think so too' },
  })
})

await t.test('a notification whose post or comment is deleted leaves the open list', async (t) => {
  const { send } = await liveApp(t, me, '/notifications', {
    'GET /api/notifications': () =>
      ok({
        notifications: [
          note('like', maya, 1, { post }),
          note('mention', theo, 2, { post: other, comment: { _id: 'c8', text: 'Soon gone' } }),
          note('comment', ada, 3, { post: other, comment: { _id: 'c9', text: 'Staying' } }),
        ],
        nextCursor: null,
        unread: 0,
      }),
  })
  await screen.findByText('Tea at noon')
  send('post.deleted', { postId: 'p1' })
  await until(() => screen.queryByText('Tea at noon') === null)
  send('comment.deleted', { postId: 'p2', commentId: 'c8' })
  await until(() => screen.queryByText('Soon gone') === null)
  t.ok(screen.getByText('Staying'), 'the rest of that post stays')
})

await t.test('a follow request is a row of its own, leading to the requests, and the stream goes on', async (t) => {
  const { send, streams } = await liveApp(t, me, '/notifications', {
    'GET /api/notifications': () =>
      ok({ notifications: [note('follow_request', maya, 1)], nextCursor: null, unread: 1 }),
    'POST /api/notifications/read': () => ok({ unread: 0 }),
  })
  const list = await screen.findByRole('list', { name: 'Notifications' })
  const rows = () => within(list).getAllByRole('listitem')
  t.same(
    rows().map((row) => within(row).getByRole('link').textContent),
    ['New: Maya Lin @maya.lin asked to follow you · 1m'],
  )
  t.equal(
    within(rows()[0]!).getByRole('link').getAttribute('href'),
    '/follow-requests',
    'it opens the requests waiting',
  )
  streams.last.emit('follow_request.created', { user: summary(theo) }, '900')
  send('notification.created', { ...note('follow_request', theo, 0), unread: 1 })
  t.ok(await within(list).findByText(/Theo Park/), 'the stream goes on: the new request shows in the list')
})
