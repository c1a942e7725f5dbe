import './dom.js'
import { cleanup, screen, within } from '@testing-library/react'
import t from 'tap'
import type { Notification } from '../../client/api/types.js'
import { NotificationRow } from '../../client/components/notification-row.js'
import { PostCard } from '../../client/components/post-card.js'
import { groupNotifications } from '../../client/lib/notification-groups.js'
import { App } from '../../client/app.js'
import { applyLiveEvent } from '../../client/live/apply.js'
import { cachePosts, postCache } from '../../client/state/post-cache.js'
import {
  cardProps,
  makeComment,
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  summary,
} from './helpers.js'

/** The name someone chose shows wherever they show; without one, their first and last name. */

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const CHOSEN = 'Maya the Maker'
const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', displayName: CHOSEN, _id: 'id-maya' })
const mayaSummary = { ...summary(maya), displayName: CHOSEN }

await t.test('a post and its comments show the chosen name, or the names without one', async (t) => {
  const post = makePost({
    displayName: CHOSEN,
    mediaUrl: '/media/x.png',
    type: 'image',
    comments: [makeComment('with a chosen name', { displayName: 'Theo T.' }), makeComment('with none')],
  })
  renderAt('/', <PostCard {...cardProps({ post, commentsOpen: true })} />)
  const card = screen.getByRole('article')
  t.ok(within(card).getAllByText(CHOSEN).length > 0, 'the author')
  t.ok(within(card).getByRole('img', { name: `Image posted by ${CHOSEN}` }), "the image's fallback description")
  t.ok(within(card).getByText('Theo T.'), "a commenter's chosen name")
  t.ok(within(card).getByText('Maya Lin'), 'a commenter without one: the names')
  t.equal(within(card).queryByText('Theo Park'), null)
})

await t.test('a notification names its actor by the chosen name', async (t) => {
  const note: Notification = {
    _id: 'n1',
    type: 'follow',
    actor: mayaSummary,
    createdAt: new Date().toISOString(),
    read: false,
  }
  const [group] = groupNotifications([note])
  if (!group) throw new Error('one group')
  renderAt(
    '/',
    <ul>
      <NotificationRow group={group} now={Date.now()} />
    </ul>,
  )
  t.match(screen.getByRole('listitem').textContent, CHOSEN)
  t.notMatch(screen.getByRole('listitem').textContent, 'Maya Lin')
})

await t.test('the account menu and people found show the chosen name', async (t) => {
  signInAs(maya)
  const api = stubApi({
    'GET /api/users/maya': () => ok({ user: maya }),
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
    'GET /api/search': () => ok({ users: [{ ...mayaSummary, bio: '' }], nextCursor: null }),
  })
  t.teardown(api.restore)
  renderAt('/search?q=maya&type=users', <App />)
  const found = await screen.findByRole('list', { name: 'People found' })
  t.ok(within(found).getByText(CHOSEN), 'in people search')
  t.equal(within(found).queryByText('Maya Lin'), null)
  const menu = screen.getByRole('button', { name: /Account menu/ })
  t.match(menu.textContent, CHOSEN, 'in the account menu')
})

await t.test('a display name chosen or cleared reaches the posts on screen', async (t) => {
  cachePosts([makePost({ _id: 'p1', username: 'maya' })])
  const edit = (displayName: string) =>
    applyLiveEvent({
      name: 'user.updated',
      data: { user: { ...summary(maya), displayName, bio: '', website: '', updatedAt: maya.updatedAt } },
      id: undefined,
    })
  edit(CHOSEN)
  t.equal(postCache.byId.p1?.displayName, CHOSEN)
  edit('')
  t.equal(postCache.byId.p1?.displayName, undefined, 'cleared: the names show again')
})
