import './dom.js'
import { readdir } from 'node:fs/promises'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { getVersion, snapshot } from 'valtio'
import { App } from '../../client/app.js'
import { loadComments } from '../../client/state/comments.js'
import { requestHomeEarly, takeEarlyHome } from '../../client/state/early-home.js'
import {
  lists,
  loadBookmarks,
  loadExplore,
  loadHome,
  loadPost,
  loadProfilePosts,
  loadSearchPosts,
  loadTagPosts,
} from '../../client/state/lists.js'
import { loadAuditLog } from '../../client/state/moderated-people.js'
import { loadQueue } from '../../client/state/moderation.js'
import { loadConversations, loadUnreadConversations } from '../../client/state/conversations.js'
import { loadFollowRequests } from '../../client/state/follows.js'
import { setStreamState } from '../../client/state/network.js'
import { loadRelations } from '../../client/state/relations.js'
import { loadNotifications, notifications } from '../../client/state/notifications.js'
import { loadListMembers, loadPeopleLists } from '../../client/state/people-lists.js'
import { postCache } from '../../client/state/post-cache.js'
import { loadPeople, loadTrending } from '../../client/state/search.js'
import { session, startSession } from '../../client/state/session.js'
import { clearState, logout, STATE_RESETS } from '../../client/state/sign-out.js'
import { showToast } from '../../client/state/toasts.js'
import { loadEmojis } from '../../client/state/emojis.js'
import { loadProfile, loadSuggestions, users } from '../../client/state/users.js'
import {
  fail,
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

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const STATE_DIR = new URL('../../client/state/', import.meta.url)

/** The modules of client/state, by file name. */
async function stateModules(): Promise<string[]> {
  const files = await readdir(STATE_DIR)
  return files.filter((file) => file.endsWith('.ts')).map((file) => file.slice(0, -'.ts'.length))
}

/** The valtio proxies a module exports, by export name. */
async function proxiesOf(name: string): Promise<Record<string, object>> {
  const module = (await import(new URL(`${name}.ts`, STATE_DIR).href)) as Record<string, unknown>
  const found: Record<string, object> = {}
  for (const [key, value] of Object.entries(module)) {
    if (typeof value === 'object' && value !== null && getVersion(value) !== undefined) found[key] = value
  }
  return found
}

/** A plain copy of every store's state, by `module.export`. */
async function stateOfEveryStore(): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {}
  for (const name of await stateModules()) {
    for (const [key, store] of Object.entries(await proxiesOf(name))) {
      state[`${name}.${key}`] = JSON.parse(JSON.stringify(snapshot(store))) as unknown
    }
  }
  return state
}

await t.test('the sign-out list names every module of client/state, and only those', async (t) => {
  t.same(Object.keys(STATE_RESETS).sort(), (await stateModules()).sort())
  for (const [name, reset] of Object.entries(STATE_RESETS)) {
    if (reset === null)
      t.same(Object.keys(await proxiesOf(name)), [], `${name} says it holds nothing, and has no store`)
  }
})

const me = makeUser({ username: 'guest', email: 'guest@example.com' })
const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin' })
const post = makePost({ _id: 'p1', id: 'p1', content: 'A post of mine #tea' })
const posts = { posts: [post], nextCursor: null }

await t.test("after a logout every store's state is its state at the start", async (t) => {
  // What the server says of itself (whether it offers the guest account) is not the user's: it stays.
  session.guestLogin = true
  const start = await stateOfEveryStore()

  const api = stubApi({
    'GET /api/feed': () => ok(posts),
    'GET /api/posts': () => ok(posts),
    'GET /api/posts/user/maya': () => ok(posts),
    'GET /api/posts/tag/tea': () => ok(posts),
    'GET /api/posts/p1': () => ok({ post }),
    'GET /api/comments/p1': () => ok({ comments: [makeComment('Mine')], nextCursor: null }),
    'GET /api/search': (req) =>
      ok(req.query.get('type') === 'users' ? { users: [summary(maya)], nextCursor: null } : posts),
    'GET /api/users/bookmark': () => ok({ bookmarks: [post], nextCursor: null }),
    'GET /api/users/maya': () => ok({ user: maya }),
    'GET /api/users/suggestions': () => ok({ users: [maya] }),
    'GET /api/notifications': () =>
      ok({
        notifications: [{ _id: 'n1', type: 'follow', actor: summary(maya), createdAt: post.createdAt, read: false }],
        nextCursor: null,
        unread: 1,
      }),
    'GET /api/tags/trending': () => ok({ tags: [{ tag: 'tea', posts: 1 }] }),
    'GET /api/users/blocks': () => ok({ users: [summary(maya)], nextCursor: null }),
    'GET /api/users/mutes': () => ok({ users: [{ ...summary(maya), mutedUntil: null }], nextCursor: null }),
    'GET /api/admin/reports': () => ok({ reports: [], nextCursor: null, open: 2 }),
    'GET /api/admin/log': () =>
      ok({
        entries: [
          { _id: 'a1', actor: 'cli', action: 'role', targetType: 'user', targetId: 'u1', createdAt: post.createdAt },
        ],
        nextCursor: null,
      }),
    'GET /api/follow-requests': () => ok({ users: [summary(maya)], nextCursor: null }),
    'GET /api/conversations': () =>
      ok({
        conversations: [{ _id: 'c1', participants: [summary(maya)], lastPost: post, unread: 1 }],
        nextCursor: null,
      }),
    'GET /api/conversations/unread': () => ok({ count: 1 }),
    'GET /api/v1/lists': () => ok([{ id: 'l1', title: 'Friends', replies_policy: 'list', exclusive: false }]),
    'GET /api/v1/lists/l1/accounts': () => ok([]),
    'GET /api/v1/custom_emojis': () => ok([{ shortcode: 'blob', url: '/media/blob.png' }]),
    'POST /api/auth/logout': () => ok({}),
  })
  t.teardown(api.restore)
  signInAs(me)
  requestHomeEarly('/')
  await Promise.all([
    loadHome(),
    loadExplore(),
    loadBookmarks(),
    loadProfilePosts('maya'),
    loadSearchPosts('tea'),
    loadTagPosts('tea'),
    loadPost('p1'),
    loadComments('p1'),
    loadProfile('maya'),
    loadSuggestions(),
    loadNotifications(),
    loadPeople('ma'),
    loadTrending(),
    loadRelations(),
    loadQueue('open'),
    loadAuditLog(),
    loadFollowRequests(),
    loadConversations(),
    loadUnreadConversations(),
    loadPeopleLists(),
    loadListMembers('l1'),
    loadEmojis(),
  ])
  showToast('Your post was sent', 'success')
  setStreamState('open')
  requestHomeEarly('/')

  const used = await stateOfEveryStore()
  t.same(Object.keys(used).sort(), Object.keys(start).sort())
  for (const key of Object.keys(start)) {
    // Otherwise the check below would prove nothing of that store: the steps above must fill each one.
    t.notSame(used[key], start[key], `${key} holds something while signed in`)
  }

  logout()
  const after = await stateOfEveryStore()
  for (const key of Object.keys(start)) t.same(after[key], start[key], `${key} is back to its start`)
  t.equal(localStorage.getItem('token'), null, 'the stored session is gone')
  // The same token again (signInAs always uses one), so only the reset can tell the early page away.
  signInAs(me)
  t.equal(takeEarlyHome('latest'), undefined, 'the home feed asked for early is forgotten')
})

await t.test("after a logout and a login in the same tab, nothing of the last person's shows", async (t) => {
  const secret = makePost({ _id: 'secret', id: 'secret', content: 'Only for my bookmarks' })
  const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', email: 'maya@example.com' })
  let bookmarksOfMaya: (value: unknown) => void = () => {}
  const api = stubApi({
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
    'POST /api/auth/logout': () => ok({}),
    'POST /api/auth/login': () => ok({ foundUser: maya, encodedToken: 'token-maya' }),
    'GET /api/users/bookmark': async (req) => {
      if (req.headers.get('authorization') === 'Bearer test-token') return ok({ bookmarks: [secret], nextCursor: null })
      // Maya's own list is slow to come: whatever shows meanwhile is what the tab still held.
      await new Promise((resolve) => (bookmarksOfMaya = resolve))
      return ok({ bookmarks: [], nextCursor: null })
    },
  })
  t.teardown(api.restore)
  signInAs({ ...me, bookmarks: [secret] })
  const { location } = renderAt('/bookmark', <App />)
  await screen.findByText('Only for my bookmarks')

  fireEvent.click(await screen.findByRole('button', { name: /^Account menu/ }))
  fireEvent.click(screen.getByRole('menuitem', { name: 'Log out @guest' }))
  fireEvent.click(
    within(screen.getByRole('alertdialog', { name: 'Log out of Chirp?' })).getByRole('button', { name: 'Log out' }),
  )
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'maya' } })
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'mayapassword' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await until(() => location.history.at(-1) === '/')

  let shown = false
  const watch = new MutationObserver(() => {
    shown ||= document.body.textContent.includes('Only for my bookmarks')
  })
  watch.observe(document.body, { childList: true, subtree: true, characterData: true })
  t.teardown(() => watch.disconnect())
  fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Bookmarks' }))
  await screen.findByRole('heading', { name: 'Bookmarks' })
  bookmarksOfMaya(undefined)
  await screen.findByText('You have not added any Bookmarks!')
  t.notOk(shown, "the last person's bookmark was never drawn for Maya")
})

await t.test("an answer asked for before a logout and come after it is not the next person's", async (t) => {
  const answers: (() => void)[] = []
  const later = <T,>(body: T) => new Promise<ReturnType<typeof ok>>((resolve) => answers.push(() => resolve(ok(body))))
  const api = stubApi({
    'GET /api/users/suggestions': () => later({ users: [maya] }),
    'GET /api/notifications': () => later({ notifications: [], nextCursor: null, unread: 3 }),
    'POST /api/auth/logout': () => ok({}),
  })
  t.teardown(api.restore)
  signInAs(me)
  const asked = [loadSuggestions(), loadNotifications()]
  await until(() => answers.length === 2)
  logout()
  for (const answer of answers) answer()
  await Promise.all(asked)
  t.same(snapshot(users).suggestions, [], 'no suggestions made for the last person')
  t.equal(users.suggestionsLoaded, false)
  t.equal(notifications.unread, 0, 'no unread count of theirs')
})

await t.test('a token the server rejects signs out as a logout does', async (t) => {
  const api = stubApi({
    'GET /api/posts': () => ok(posts),
    'GET /api/users/guest': () => fail(401, 'The token is invalid. Unauthorized access error.'),
    'GET /api/health': () => ok({ status: 'ok' }),
  })
  t.teardown(api.restore)
  signInAs(me)
  await loadExplore()
  t.ok(postCache.byId.p1, 'a post is held')
  startSession(clearState)
  await until(() => session.token === null)
  await until(() => !lists.explore.loaded && Object.keys(postCache.byId).length === 0)
  t.pass('the lists and the posts are forgotten too')
})
