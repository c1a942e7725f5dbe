import t from 'tap'
import { MSG } from '../../server/errors.js'
import { buildApiApp, expectError, signup } from '../helpers/api.js'
import { call, commentBy, seedWithStaff } from '../helpers/moderation.js'
import { snapshotDb } from '../helpers/seeded.js'

/**
 * While someone is suspended their posts, comments and profile are not there for anyone (DECISIONS §8):
 * every interaction aimed at them answers the 404 a read does, and changes nothing.
 */
const api = await buildApiApp(t, { options: { seed: seedWithStaff } })
const moderator = await api.login('theo_park')

await t.test(
  "every interaction with a suspended person's content, or with them, is a 404 and changes nothing",
  async (t) => {
    const [author, actor] = [await signup(api), await signup(api)]
    const created = await call(api, author.token, 'POST', '/api/posts', {
      content: 'a poll of a soon suspended person',
      poll: { options: ['yes', 'no'], days: 1 },
    })
    const postId = (created.json() as { post: { _id: string } }).post._id
    const other = (
      (await call(api, author.token, 'POST', '/api/posts', { content: 'another' })).json() as { post: { _id: string } }
    ).post._id
    const commentId = await commentBy(api, author.token, postId, 'their comment')
    // Things the actor did before the suspension, to take back after it.
    for (const url of [`/api/posts/like/${other}`, `/api/users/bookmark/${other}`, `/api/posts/repost/${other}`]) {
      t.ok((await call(api, actor.token, 'POST', url)).statusCode < 300, url)
    }
    const followed = await call(api, actor.token, 'POST', `/api/users/follow/${author.user._id}`)
    t.equal(followed.statusCode, 200, 'followed before')
    const suspended = await call(api, moderator, 'POST', `/api/admin/users/${author.user._id}/suspend`, { reason: 'x' })
    t.equal(suspended.statusCode, 200, 'suspended')

    const before = await snapshotDb(api)
    const onPost: ['POST', string, object?][] = [
      ['POST', `/api/posts/like/${postId}`],
      ['POST', `/api/posts/dislike/${other}`],
      ['POST', `/api/comments/add/${postId}`, { text: 'a comment' }],
      ['POST', `/api/comments/upvote/${postId}/${commentId}`],
      ['POST', `/api/comments/downvote/${postId}/${commentId}`],
      ['POST', `/api/users/bookmark/${postId}`],
      ['POST', `/api/users/remove-bookmark/${other}`],
      ['POST', `/api/polls/${postId}/vote`, { choice: 0 }],
      ['POST', `/api/posts/repost/${postId}`],
      ['POST', `/api/posts/unrepost/${other}`],
      ['POST', '/api/posts', { content: 'quoting', quoteOf: postId }],
    ]
    for (const [method, url, body] of onPost) {
      expectError(t, await call(api, actor.token, method, url, body), 404, MSG.postNotFound, `${method} ${url}`)
    }
    for (const url of [`/api/users/follow/${author.user._id}`, `/api/users/unfollow/${author.user._id}`]) {
      expectError(t, await call(api, actor.token, 'POST', url), 404, MSG.userNotFound, url)
    }
    t.strictSame(await snapshotDb(api), before, 'nothing stored changed')
  },
)
