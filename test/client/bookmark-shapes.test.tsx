import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import type { Post, User } from '../../client/api/types.js'
import { App } from '../../client/app.js'
import { bookmarkIds } from '../../client/lib/model.js'
import { loadCurrentUser, login, session } from '../../client/state/session.js'
import { editProfile } from '../../client/state/users.js'
import { makePost, makeUser, ok, renderAt, resetAll, stubApi, summary, until } from './helpers.js'

/**
 * A user's own record carries `bookmarks` as the bookmarked posts (docs/api-contract.md §2) or, from an
 * earlier server, as post ids. The client must read either as the same bookmarks.
 */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

let saved: Post
let other: Post
let me: User
t.beforeEach(() => {
  saved = makePost({ _id: 'saved', id: 'saved', content: 'A saved post' })
  other = makePost({ _id: 'other', id: 'other', content: 'Another post' })
  me = makeUser({ username: 'guest', email: 'guest@example.com', bookmarks: [saved] })
})

const quiet = { 'GET /api/users/suggestions': () => ok({ users: [] }) }
const buttonOf = (content: string) =>
  screen.getByText(content).closest('article')?.querySelector('.bookmark-action')?.getAttribute('aria-label')

await t.test('bookmarkIds reads ids and posts alike', async (t) => {
  t.same(bookmarkIds(['a', { _id: 'b' }, 'c']), ['a', 'b', 'c'])
  t.same(bookmarkIds([]), [])
})

await t.test(
  'a login whose user carries bookmarked posts shows them as bookmarked, and un-bookmarking works',
  async (t) => {
    const api = stubApi({
      ...quiet,
      'POST /api/auth/login': () => ok({ foundUser: me, encodedToken: 'token-1' }),
      'GET /api/posts': () => ok({ posts: [saved, other], nextCursor: null }),
      'POST /api/users/remove-bookmark/saved': () => ok({ bookmarks: [] }),
    })
    t.teardown(api.restore)
    t.equal(await login({ username: 'guest', password: 'guestpassword' }), true)
    t.same(session.user?.bookmarks, ['saved'], 'the session keeps ids')
    renderAt('/explore', <App />)
    await screen.findByText('Another post')
    t.equal(buttonOf('A saved post'), 'Remove bookmark', 'the bookmarked post reads as bookmarked')
    t.equal(buttonOf('Another post'), 'Bookmark', 'the other does not')
    fireEvent.click(screen.getByRole('button', { name: 'Remove bookmark' }))
    await until(() => buttonOf('A saved post') === 'Bookmark')
    t.same(session.user?.bookmarks, [], 'un-bookmarked')
  },
)

await t.test(
  'my record as GET /users/{me}, a follow or a profile edit answers it may carry either shape',
  async (t) => {
    const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin' })
    const { restore } = stubApi({
      ...quiet,
      'GET /api/users/guest': () => ok({ user: { ...me, bookmarks: ['saved'] } }),
      'GET /api/users/maya': () => ok({ user: maya }),
      'GET /api/posts/user/maya': () => ok({ posts: [other], nextCursor: null }),
      'POST /api/users/follow/id-maya': () =>
        ok({ user: { ...me, bookmarks: [other, saved], following: [summary(maya)] }, followUser: maya }),
      'POST /api/users/edit': () => ({ status: 201, body: { user: { ...me, bio: 'Edited', bookmarks: ['saved'] } } }),
    })
    t.teardown(restore)
    localStorage.setItem('token', 'token-1')
    localStorage.setItem('username', 'guest')
    session.token = 'token-1'
    session.username = 'guest'
    await loadCurrentUser()
    t.same(session.user?.bookmarks, ['saved'], 'ids, as earlier servers sent them')

    renderAt('/profile/maya', <App />)
    await screen.findByText('Another post')
    t.equal(buttonOf('Another post'), 'Bookmark')
    fireEvent.click(await screen.findByRole('button', { name: 'Follow Maya Lin' }))
    await until(() => buttonOf('Another post') === 'Remove bookmark')
    t.same(session.user?.bookmarks, ['other', 'saved'], 'posts, in the answer to a follow')
    t.equal(await editProfile({ bio: 'Edited' }), true)
    t.same(session.user?.bookmarks, ['saved'], 'ids again, in the answer to a profile edit')
    await until(() => buttonOf('Another post') === 'Bookmark')
  },
)
