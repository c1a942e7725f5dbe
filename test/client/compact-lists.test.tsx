import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import type { Post } from '../../client/api/types.js'
import { requestHomeEarly, takeEarlyHome } from '../../client/state/early-home.js'
import {
  loadBookmarks,
  loadExplore,
  loadHome,
  loadProfilePosts,
  loadSearchPosts,
  loadTagPosts,
} from '../../client/state/lists.js'
import { postCache } from '../../client/state/post-cache.js'
import { makeComment, ok, resetAll, signInAs, stubApi, summary, until } from './helpers.js'
import { LATER, liveApp, samples } from './live-app.js'

/**
 * Every list of posts is read compact (`compact=1`): a post then carries `likedBy` holding only me when I
 * like it, no `dislikedBy` and no `comments`, and the true `likeCount` and `commentCount`. The client reads
 * its likes and counts from that, and a post's comments when they are opened. A server that ignores
 * `compact` sends whole posts, which must read the same.
 */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

let { me, maya, theo, p1 } = samples()
t.beforeEach(() => void ({ me, maya, theo, p1 } = samples()))

/** `post` as a compact list sends it: `likedBy` holds me only when I like it, and no comments. */
function compact(post: Post, count: { likes: number; comments: number; mine?: boolean }): Post {
  const likedBy = count.mine ? [summary(me)] : []
  return {
    ...post,
    likes: { likeCount: count.likes, likedBy, dislikedBy: [] },
    comments: [],
    commentCount: count.comments,
  }
}

await t.test('every read of a list of posts asks for compact posts', async (t) => {
  const page = () => ok({ posts: [], nextCursor: null })
  const api = stubApi({
    'GET /api/feed': page,
    'GET /api/posts': page,
    'GET /api/posts/user/maya': page,
    'GET /api/posts/tag/tea': page,
    'GET /api/search': page,
    'GET /api/users/bookmark': () => ok({ bookmarks: [], nextCursor: null }),
  })
  t.teardown(api.restore)
  signInAs(me)
  requestHomeEarly('/')
  await takeEarlyHome('latest')
  await Promise.all([
    loadHome(),
    loadExplore(),
    loadProfilePosts('maya'),
    loadTagPosts('tea'),
    loadSearchPosts('tea'),
    loadBookmarks(),
  ])
  const reads = api.calls.map((c) => `${c.path} ${c.query.get('compact')}`)
  t.same(reads.sort(), [
    '/api/feed 1',
    '/api/feed 1',
    '/api/posts 1',
    '/api/posts/tag/tea 1',
    '/api/posts/user/maya 1',
    '/api/search 1',
    '/api/users/bookmark 1',
  ])
})

await t.test('a compact post shows my like and the true counts; a whole one reads the same', async (t) => {
  const mine = compact(p1, { likes: 41, comments: 7, mine: true })
  // As a server of the original mock answers: whole lists, and no commentCount.
  const { commentCount: _none, ...withoutCount } = p1
  const whole = {
    ...withoutCount,
    _id: 'p2',
    id: 'p2',
    content: 'A whole post',
    likes: { likeCount: 2, likedBy: [summary(maya), summary(me)], dislikedBy: [] },
    comments: [makeComment('One'), makeComment('Two'), makeComment('Three')],
  }
  const other = compact({ ...p1, _id: 'p3', id: 'p3', content: 'Not liked' }, { likes: 5, comments: 0 })
  await liveApp(t, me, '/explore', { 'GET /api/posts': () => ok({ posts: [mine, whole, other], nextCursor: null }) })
  const card = async (text: string) => (await screen.findByText(text)).closest('article') as HTMLElement
  const first = within(await card('A post to watch'))
  t.ok(first.getByRole('button', { name: 'Unlike, 41 likes' }), 'liked: I am in likedBy')
  t.ok(first.getByRole('button', { name: 'Comments, 7 comments' }), 'the count, not the empty list')
  const second = within(await card('A whole post'))
  t.ok(second.getByRole('button', { name: 'Unlike, 2 likes' }))
  t.ok(second.getByRole('button', { name: 'Comments, 3 comments' }), 'no commentCount: its comments counted')
  t.ok(within(await card('Not liked')).getByRole('button', { name: 'Like, 5 likes' }))
})

await t.test("a post's page reads its comments, page by page, rather than taking them from a list", async (t) => {
  const older = makeComment('The first reply', { createdAt: '2026-01-01T00:00:00.000Z' })
  const newer = makeComment('A later reply', { createdAt: '2026-01-02T00:00:00.000Z' })
  const { api } = await liveApp(t, me, '/post-detail/p1', {
    'GET /api/posts/p1': () => ok({ post: compact(p1, { likes: 0, comments: 2 }) }),
    'GET /api/comments/p1': (req) =>
      req.query.get('cursor') === 'page-2'
        ? ok({ comments: [newer], nextCursor: null })
        : ok({ comments: [older], nextCursor: 'page-2' }),
  })
  const region = await screen.findByRole('region', { name: 'Comments' })
  await within(region).findByText('The first reply')
  t.equal(api.calls.find((c) => c.path === '/api/comments/p1')?.query.get('limit'), '100')
  fireEvent.click(within(region).getByRole('button', { name: 'Show more replies' }))
  await within(region).findByText('A later reply')
  t.equal(within(region).queryByRole('button', { name: 'Show more replies' }), null, 'none left')
  t.ok(screen.getByRole('button', { name: 'Comments, 2 comments' }))
})

await t.test('comments that cannot be read say so, with Try again', async (t) => {
  let fails = true
  await liveApp(t, me, '/post-detail/p1', {
    'GET /api/posts/p1': () => ok({ post: compact(p1, { likes: 0, comments: 1 }) }),
    'GET /api/comments/p1': () =>
      fails
        ? { status: 503, body: { errors: ['Busy'] } }
        : ok({ comments: [makeComment('Here now')], nextCursor: null }),
  })
  const region = await screen.findByRole('region', { name: 'Comments' })
  await within(region).findByRole('alert')
  fails = false
  fireEvent.click(within(region).getByRole('button', { name: 'Try again' }))
  await within(region).findByText('Here now')
})

await t.test('live events move the counts of compact posts, each once however often told', async (t) => {
  const reply = makeComment('From Theo', { username: 'theo', _id: 'c-theo' })
  const { send } = await liveApp(t, me, '/explore', {
    'GET /api/posts': () => ok({ posts: [compact(p1, { likes: 3, comments: 4 })], nextCursor: null }),
  })
  await screen.findByRole('button', { name: 'Comments, 4 comments' })
  send('comment.added', { postId: 'p1', comment: reply })
  send('comment.added', { postId: 'p1', comment: reply })
  await screen.findByRole('button', { name: 'Comments, 5 comments' })
  send('comment.deleted', { postId: 'p1', commentId: 'c-theo' })
  send('comment.deleted', { postId: 'p1', commentId: 'c-theo' })
  send('comment.deleted', { postId: 'p1', commentId: 'c-unseen' })
  await screen.findByRole('button', { name: 'Comments, 3 comments' })
  send('post.liked', { postId: 'p1', user: summary(theo), liked: true, likeCount: 4, updatedAt: LATER })
  await screen.findByRole('button', { name: 'Like, 4 likes' })
  send('post.liked', { postId: 'p1', user: summary(me), liked: true, likeCount: 5, updatedAt: LATER })
  await screen.findByRole('button', { name: 'Unlike, 5 likes' })
  t.equal(postCache.byId.p1?.commentCount, 3)
})

await t.test('my own comment deleted, answered and then announced, leaves the count once lower', async (t) => {
  const mine = makeComment('Mine to delete', { username: 'guest', firstName: 'Guest', lastName: 'User', _id: 'c-mine' })
  const { send } = await liveApp(t, me, '/post-detail/p1', {
    'GET /api/posts/p1': () => ok({ post: compact(p1, { likes: 0, comments: 2 }) }),
    'GET /api/comments/p1': () => ok({ comments: [makeComment('Stays'), structuredClone(mine)], nextCursor: null }),
    'POST /api/comments/delete/p1/c-mine': () => ({
      status: 201,
      body: { post: { ...p1, comments: [makeComment('Stays')], commentCount: 1 } },
    }),
  })
  const region = await screen.findByRole('region', { name: 'Comments' })
  const mineItem = (await within(region).findByText('Mine to delete')).closest('li') as HTMLElement
  fireEvent.click(within(mineItem).getByRole('button', { name: 'Comment options' }))
  fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }))
  fireEvent.click(
    within(screen.getByRole('alertdialog', { name: 'Delete comment?' })).getByRole('button', { name: 'Delete' }),
  )
  await until(() => within(region).queryByText('Mine to delete') === null)
  send('comment.deleted', { postId: 'p1', commentId: 'c-mine' })
  t.ok(await screen.findByRole('button', { name: 'Comments, 1 comment' }))
  t.ok(within(region).getByText('Stays'))
})
