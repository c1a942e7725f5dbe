import './dom.js'
import { cleanup, screen } from '@testing-library/react'
import t from 'tap'
import type { Post, User } from '../../client/api/types.js'
import { postCache } from '../../client/state/post-cache.js'
import { ok, resetAll, summary } from './helpers.js'
import { LATER, liveApp, samples } from './live-app.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

let { me, maya, theo, p1 } = samples()
t.beforeEach(() => void ({ me, maya, theo, p1 } = samples()))

/** Explore showing only `post`. */
const onExplore = (post: Post) => ({ 'GET /api/posts': () => ok({ posts: [post], nextCursor: null }) })
const like = (user: User, liked: boolean, likeCount: number, postId = 'p1') => ({
  postId,
  user: summary(user),
  liked,
  likeCount,
  updatedAt: LATER,
})

await t.test(
  'post.liked: likes and unlikes change the count, and move the person from likedBy to dislikedBy',
  async (t) => {
    const { send } = await liveApp(t, me, '/explore', onExplore(p1))
    await screen.findByText('A post to watch')
    send('post.liked', like(maya, true, 1))
    t.ok(await screen.findByRole('button', { name: 'Like, 1 like' }))
    t.same(postCache.byId.p1?.likes, { likeCount: 1, likedBy: [summary(maya)], dislikedBy: [] })
    t.equal(postCache.byId.p1?.updatedAt, LATER)

    send('post.liked', like(me, true, 2))
    t.ok(await screen.findByRole('button', { name: 'Unlike, 2 likes' }), 'my like from another tab shows as mine')
    send('post.liked', like(maya, false, 1))
    t.ok(await screen.findByRole('button', { name: 'Unlike, 1 like' }))
    t.same(postCache.byId.p1?.likes, { likeCount: 1, likedBy: [summary(me)], dislikedBy: [summary(maya)] })
    send('post.liked', like(me, false, 0))
    t.ok(await screen.findByRole('button', { name: 'Like, 0 likes' }))
    t.same(
      postCache.byId.p1?.likes.dislikedBy,
      [summary(maya), summary(me)],
      'newcomers last, as the server lists them',
    )
  },
)

await t.test(
  "post.liked: a like seen twice counts once; the count is the server's when the lists disagree",
  async (t) => {
    // Shown with fewer likers than its count, as after a like this tab never saw.
    const partial = { ...p1, likes: { likeCount: 3, likedBy: [summary(maya)], dislikedBy: [summary(theo)] } }
    const { send } = await liveApp(t, me, '/explore', onExplore(partial))
    await screen.findByRole('button', { name: 'Like, 3 likes' })
    send('post.liked', like(maya, true, 3))
    t.same(postCache.byId.p1?.likes.likedBy, [summary(maya)], 'Maya once')
    send('post.liked', like(theo, true, 4))
    t.ok(await screen.findByRole('button', { name: 'Like, 4 likes' }))
    t.same(postCache.byId.p1?.likes, { likeCount: 4, likedBy: [summary(maya), summary(theo)], dislikedBy: [] })
  },
)

await t.test('post.updated: the text and the image change; the description and size follow the image', async (t) => {
  const pictured = {
    ...p1,
    mediaUrl: '/media/a.png',
    type: 'image',
    mediaAlt: 'A red kite',
    mediaWidth: 800,
    mediaHeight: 600,
  }
  const { send } = await liveApp(t, me, '/explore', onExplore(pictured))
  await screen.findByText('A post to watch')
  const edit = { postId: 'p1', content: 'Edited elsewhere', mediaUrl: '/media/a.png', type: 'image', updatedAt: LATER }
  send('post.updated', { ...edit, mediaAlt: 'A red kite over the hill' })
  t.ok(await screen.findByText('Edited elsewhere'))
  t.match(postCache.byId.p1, {
    mediaAlt: 'A red kite over the hill',
    mediaWidth: 800,
    mediaHeight: 600,
    updatedAt: LATER,
  })

  send('post.updated', { ...edit, mediaUrl: '/media/b.png' })
  const image = await screen.findByAltText('Image posted by Maya Lin')
  t.equal(image.getAttribute('src'), '/media/b.png')
  t.notOk(
    ['mediaAlt', 'mediaWidth', 'mediaHeight'].some((key) => key in (postCache.byId.p1 ?? {})),
    'a new image starts undescribed and unmeasured',
  )

  send('post.updated', { ...edit, mediaUrl: '/media/b.png', mediaWidth: 320, mediaHeight: 240 })
  t.match(postCache.byId.p1, { mediaWidth: 320, mediaHeight: 240 })
  send('post.updated', { ...edit, content: 'Words only', mediaUrl: '', type: '' })
  t.ok(await screen.findByText('Words only'))
  t.equal(screen.queryByAltText('Image posted by Maya Lin'), null, 'the image is gone')
  t.notOk('mediaWidth' in (postCache.byId.p1 ?? {}))
})

await t.test('a delta about a post the tab does not show changes nothing and fetches nothing', async (t) => {
  const { api, send } = await liveApp(t, me, '/explore', onExplore(p1))
  await screen.findByText('A post to watch')
  const before = api.calls.length
  send('post.liked', like(maya, true, 1, 'elsewhere'))
  send('post.updated', { postId: 'elsewhere', content: 'x', mediaUrl: '', type: '', updatedAt: LATER })
  send('comment.deleted', { postId: 'elsewhere', commentId: 'c1' })
  t.same(Object.keys(postCache.byId), ['p1'], 'no post was added to the cache')
  t.same(postCache.byId.p1?.likes.likeCount, 0, 'the post shown is untouched')
  t.equal(api.calls.length, before, 'nothing was fetched')
})

await t.test('a quoted post edited or deleted elsewhere changes the quote card of an open post', async (t) => {
  const original = { ...p1, _id: 'q0', id: 'q0', content: 'Original words', likes: { ...p1.likes, likedBy: [] } }
  const quoting: Post = {
    ...p1,
    username: 'theo',
    firstName: 'Theo',
    lastName: 'Park',
    content: 'Well said',
    quoteOf: 'q0',
    quote: original,
  }
  const { send } = await liveApp(t, me, '/explore', onExplore(quoting))
  t.ok(await screen.findByText('Original words'), 'the quote card shows the quoted post')
  const delta = { postId: 'q0', content: 'Edited words', mediaUrl: '', type: '', updatedAt: LATER, editedAt: LATER }
  send('post.updated', { ...delta, card: null })
  t.ok(await screen.findByText('Edited words'), 'an edit shows in the quote card')
  send('post.deleted', { postId: 'q0' })
  t.ok(await screen.findByText('This post is unavailable'), 'a deletion leaves it unavailable')
  t.ok(screen.getByText('Well said'), 'the quoting post stays')
})
