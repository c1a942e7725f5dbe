import './dom.js'
import t from 'tap'
import type * as Tap from 'tap'
import type { Post } from '../../client/api/types.js'
import { likedBy } from '../../client/lib/model.js'
import { postCache } from '../../client/state/post-cache.js'
import { applyPost, toggleBookmark, toggleLike } from '../../client/state/posts.js'
import { togglePin, toggleRepost } from '../../client/state/reposts.js'
import { session } from '../../client/state/session.js'
import { toasts } from '../../client/state/toasts.js'
import { type ApiReply, fail, makePost, makeUser, ok, resetAll, signInAs, stubApi, until } from './helpers.js'
import * as MSG from '../../common/messages.js'

/**
 * Likes and bookmarks go through one queue a post: quick clicks and failed or refused writes in any
 * order leave the button where the server is (the like race: a like failing with 500 while an unlike
 * is refused left "Unlike, 1 like" on a post the server had no like on).
 */

t.beforeEach(() => resetAll())
t.afterEach(() => resetAll())

const me = makeUser({ username: 'guest' })

/** A reply the test sends when it chooses, so that answers can arrive in any order. */
function later() {
  let answer: (reply: ApiReply) => void = () => {}
  const reply = new Promise<ApiReply>((resolve) => (answer = resolve))
  return { reply, answer }
}

const likedPost = (post: Post, liked: boolean, likeCount: number): Post => ({
  ...post,
  likes: { ...post.likes, likeCount, likedBy: liked ? [me] : [], dislikedBy: [] },
})

function shown(postId: string) {
  const post = postCache.byId[postId]
  return { liked: post ? likedBy(post, 'guest') : undefined, likeCount: post?.likes.likeCount }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 20))

/** Signed in, with post `id` held by the tab and the API answering from `routes`. */
function withPost(t: Tap.Test, id: string, routes: (post: Post) => Parameters<typeof stubApi>[0]) {
  signInAs(me)
  const post = makePost({ _id: id, id, content: id })
  applyPost(post)
  const api = stubApi(routes(post))
  t.teardown(api.restore)
  return { post, api }
}

await t.test('a like that fails while its unlike waits ends unliked, and the unlike is never sent', async (t) => {
  const like = later()
  const { api } = withPost(t, 'p1', () => ({
    'POST /api/posts/like/p1': () => like.reply,
    'POST /api/posts/dislike/p1': () => fail(400, MSG.likeBelowZero),
  }))

  const first = toggleLike('p1')
  t.strictSame(shown('p1'), { liked: true, likeCount: 1 }, 'the like shows at once')
  const second = toggleLike('p1')
  t.strictSame(shown('p1'), { liked: false, likeCount: 0 }, 'and so does the unlike')
  like.answer(fail(500, MSG.internal))
  await Promise.all([first, second])
  await settled()
  t.strictSame(shown('p1'), { liked: false, likeCount: 0 }, 'the button is where the server is: no like')
  t.strictSame(
    api.calls.map((call) => call.path),
    ['/api/posts/like/p1'],
    'the unlike would only have been refused',
  )
  t.equal(toasts.items.length, 0, 'no error for a like nobody wants any more')
})

await t.test('like, unlike, like while the first is on its way: one write, and the server’s answer', async (t) => {
  const like = later()
  const { post, api } = withPost(t, 'p2', () => ({ 'POST /api/posts/like/p2': () => like.reply }))
  const clicks = [toggleLike('p2'), toggleLike('p2'), toggleLike('p2')]
  like.answer(ok({ post: likedPost(post, true, 7) }))
  await Promise.all(clicks)
  t.strictSame(shown('p2'), { liked: true, likeCount: 7 }, 'the server’s count')
  t.equal(api.calls.length, 1)
})

await t.test('an unlike clicked while the like is on its way is sent after it', async (t) => {
  const like = later()
  const { post, api } = withPost(t, 'p3', (post) => ({
    'POST /api/posts/like/p3': () => like.reply,
    'POST /api/posts/dislike/p3': () => ok({ post: likedPost(post, false, 3) }),
  }))
  const clicks = [toggleLike('p3'), toggleLike('p3')]
  like.answer(ok({ post: likedPost(post, true, 4) }))
  await Promise.all(clicks)
  t.strictSame(
    api.calls.map((call) => call.path),
    ['/api/posts/like/p3', '/api/posts/dislike/p3'],
  )
  t.strictSame(shown('p3'), { liked: false, likeCount: 3 }, 'the last answer, not the like’s')
})

await t.test('a like the server already holds shows liked, with the count read again', async (t) => {
  withPost(t, 'p4', (post) => ({
    'POST /api/posts/like/p4': () => fail(400, MSG.alreadyLiked),
    'GET /api/posts/p4': () => ok({ post: likedPost(post, true, 12) }),
  }))
  await toggleLike('p4')
  await until(() => shown('p4').likeCount === 12)
  t.strictSame(shown('p4'), { liked: true, likeCount: 12 })
  t.equal(toasts.items.length, 0, 'nothing went wrong')
})

await t.test('a like that fails with nothing else clicked goes back and says why', async (t) => {
  withPost(t, 'p5', () => ({ 'POST /api/posts/like/p5': () => fail(500, MSG.internal) }))
  await toggleLike('p5')
  t.strictSame(shown('p5'), { liked: false, likeCount: 0 })
  t.equal(toasts.items.length, 1, 'one error, with a retry')
})

await t.test('a bookmark that fails while its removal waits ends where the server is', async (t) => {
  const add = later()
  const { api } = withPost(t, 'p6', () => ({
    'POST /api/users/bookmark/p6': () => add.reply,
    'POST /api/users/remove-bookmark/p6': () => fail(400, MSG.notBookmarked),
  }))
  const clicks = [toggleBookmark('p6'), toggleBookmark('p6'), toggleBookmark('p6')]
  t.ok(session.user?.bookmarks.includes('p6'), 'the last click shows at once')
  add.answer(fail(500, MSG.internal))
  await Promise.all(clicks)
  t.notOk(session.user?.bookmarks.includes('p6'), 'the server has no bookmark, and neither does the button')
  t.equal(toasts.items.length, 1, 'the bookmark still wanted failed, and says so')
  t.equal(api.calls.length, 1)
})

/*
 * Reposts and pins through the same queue: fast toggling left "Reposted, 1" on a tab while the server
 * held no repost. Each race is tried both ways: a write that fails while the opposite click waits.
 */

const repostedPost = (post: Post, reposted: boolean, repostCount: number): Post => ({ ...post, reposted, repostCount })
function shownRepost(postId: string) {
  const post = postCache.byId[postId]
  return { reposted: post?.reposted, repostCount: post?.repostCount }
}

await t.test('a repost that fails while its undoing waits ends unreposted, and the undo is never sent', async (t) => {
  const repost = later()
  const { api } = withPost(t, 'r1', () => ({
    'POST /api/posts/repost/r1': () => repost.reply,
    'POST /api/posts/unrepost/r1': () => fail(400, MSG.notReposted),
  }))
  const clicks = [toggleRepost('r1'), toggleRepost('r1'), toggleRepost('r1')]
  t.strictSame(shownRepost('r1'), { reposted: true, repostCount: 1 }, 'the last click shows at once')
  repost.answer(fail(500, MSG.internal))
  await Promise.all(clicks)
  t.strictSame(shownRepost('r1'), { reposted: false, repostCount: 0 }, 'no repost on the server, none shown')
  t.strictSame(
    api.calls.map((call) => call.path),
    ['/api/posts/repost/r1'],
  )
  t.equal(toasts.items.length, 1, 'the repost still wanted failed, and says so')
})

await t.test('an undo that fails while the repost again waits ends reposted', async (t) => {
  const undo = later()
  const { api } = withPost(t, 'r2', () => ({
    'POST /api/posts/unrepost/r2': () => undo.reply,
    'POST /api/posts/repost/r2': () => fail(400, MSG.alreadyReposted),
  }))
  const post = postCache.byId.r2
  if (post) Object.assign(post, { reposted: true, repostCount: 4 })
  const clicks = [toggleRepost('r2'), toggleRepost('r2')]
  t.strictSame(shownRepost('r2'), { reposted: true, repostCount: 4 }, 'undone and done again at once')
  undo.answer(fail(500, MSG.internal))
  await Promise.all(clicks)
  t.strictSame(
    shownRepost('r2'),
    { reposted: true, repostCount: 4 },
    'the server kept the repost, and so does the button',
  )
  t.strictSame(
    api.calls.map((call) => call.path),
    ['/api/posts/unrepost/r2'],
  )
  t.equal(toasts.items.length, 0, 'nothing wanted failed')
})

await t.test('repost, undo, repost while the first is on its way: one write, and the server’s answer', async (t) => {
  const repost = later()
  const { post, api } = withPost(t, 'r3', () => ({ 'POST /api/posts/repost/r3': () => repost.reply }))
  const clicks = [toggleRepost('r3'), toggleRepost('r3'), toggleRepost('r3')]
  repost.answer(ok({ post: repostedPost(post, true, 9) }))
  await Promise.all(clicks)
  t.strictSame(shownRepost('r3'), { reposted: true, repostCount: 9 }, 'the server’s count')
  t.equal(api.calls.length, 1)
})

await t.test('an undo clicked while the repost is on its way is sent after it, and its answer shows', async (t) => {
  const repost = later()
  const { post, api } = withPost(t, 'r4', (post) => ({
    'POST /api/posts/repost/r4': () => repost.reply,
    'POST /api/posts/unrepost/r4': () => ok({ post: repostedPost(post, false, 2) }),
  }))
  const clicks = [toggleRepost('r4'), toggleRepost('r4')]
  repost.answer(ok({ post: repostedPost(post, true, 3) }))
  await Promise.all(clicks)
  t.strictSame(
    api.calls.map((call) => call.path),
    ['/api/posts/repost/r4', '/api/posts/unrepost/r4'],
  )
  t.strictSame(shownRepost('r4'), { reposted: false, repostCount: 2 })
})

const pinned = (postId: string) => postCache.byId[postId]?.pinned === true

await t.test('a pin refused while its unpin waits ends unpinned, and the unpin is never sent', async (t) => {
  const pin = later()
  const { api } = withPost(t, 'n1', () => ({
    'POST /api/posts/pin/n1': () => pin.reply,
    'POST /api/posts/unpin/n1': () => ok({}),
  }))
  const clicks = [togglePin('n1'), togglePin('n1'), togglePin('n1')]
  t.ok(pinned('n1'), 'shown pinned at once')
  pin.answer(fail(400, MSG.tooManyPins))
  await Promise.all(clicks)
  t.notOk(pinned('n1'), 'the server pinned nothing, and neither does the post')
  t.equal(api.calls.length, 1)
  t.match(toasts.items[0]?.text, /at most 3/, 'the refusal is said')
})

await t.test('an unpin that fails while the pin again waits ends pinned', async (t) => {
  const unpin = later()
  const { api } = withPost(t, 'n2', (post) => ({
    'POST /api/posts/unpin/n2': () => unpin.reply,
    'POST /api/posts/pin/n2': () => ok({ post: { ...post, pinned: true } }),
  }))
  if (postCache.byId.n2) postCache.byId.n2.pinned = true
  const clicks = [togglePin('n2'), togglePin('n2')]
  unpin.answer(fail(500, MSG.internal))
  await Promise.all(clicks)
  t.ok(pinned('n2'), 'still pinned, as on the server')
  t.equal(api.calls.length, 1, 'no pin sent: the server still holds it')
  t.equal(toasts.items.length, 0)
})
