import './dom.js'
import t from 'tap'
import type * as Tap from 'tap'
import type { Post } from '../../client/api/types.js'
import { likedBy } from '../../client/lib/model.js'
import { postCache } from '../../client/state/post-cache.js'
import { applyPost, toggleBookmark, toggleLike } from '../../client/state/posts.js'
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
