import t from 'tap'
import { SuspensionEventSchema } from '../../server/schemas/events.js'
import { ModeratedUserReplySchema } from '../../server/schemas/moderation.js'
import { expectOk, signup } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { call, postBy, seedWithStaff } from '../helpers/moderation.js'

/** While someone is suspended their likes and follows count nowhere, and open screens hear of it (DECISIONS §11). */
const live = await buildLiveApi(t, { options: { seed: seedWithStaff } })
const { api } = live
const moderator = await api.login('theo_park')

const suspend = (id: string) => call(api, moderator, 'POST', `/api/admin/users/${id}/suspend`, { reason: 'counts' })
const unsuspend = (id: string) => call(api, moderator, 'POST', `/api/admin/users/${id}/unsuspend`)

interface Likes {
  likes: { likeCount: number; likedBy: { _id: string }[] }
}
interface Person {
  _id: string
  followers: { _id: string }[]
  following: { _id: string }[]
}

await t.test('a suspended user’s like stops counting and comes back on unsuspend', async (t) => {
  const [author, liker, other] = [await signup(api), await signup(api), await signup(api)]
  const postId = await postBy(api, author.token, 'liked by a soon suspended user')
  for (const who of [liker, other]) await call(api, who.token, 'POST', `/api/posts/like/${postId}`)
  const seen = async () => {
    const full = (await call(api, author.token, 'GET', `/api/posts/${postId}`)).json() as { post: Likes }
    const listed = (
      await call(api, author.token, 'GET', `/api/posts/user/${author.username}?compact=1&limit=5`)
    ).json() as {
      posts: (Likes & { _id: string })[]
    }
    const likers = (await call(api, author.token, 'GET', `/api/posts/${postId}/likes`)).json() as {
      users: { _id: string }[]
    }
    return {
      count: full.post.likes.likeCount,
      likedBy: full.post.likes.likedBy.map((user) => user._id).sort(),
      listed: listed.posts.find((post) => post._id === postId)?.likes.likeCount,
      likers: likers.users.map((user) => user._id).sort(),
    }
  }
  const both = [liker.user._id, other.user._id].sort()
  t.strictSame(await seen(), { count: 2, likedBy: both, listed: 2, likers: both }, 'two likes before')
  expectOk(t, await suspend(liker.user._id), 200, ModeratedUserReplySchema)
  t.strictSame(
    await seen(),
    { count: 1, likedBy: [other.user._id], listed: 1, likers: [other.user._id] },
    'the suspended like counts nowhere',
  )
  const stream = await live.stream(t, author)
  const nextLike = async () => {
    const message = await stream.until((m) => m.event === 'post.liked', 3000)
    return (JSON.parse(message.data ?? '{}') as { likeCount: number }).likeCount
  }
  await call(api, other.token, 'POST', `/api/posts/dislike/${postId}`)
  t.equal(await nextLike(), 0, 'a live unlike’s count leaves the suspended like out')
  await call(api, other.token, 'POST', `/api/posts/like/${postId}`)
  t.equal(await nextLike(), 1, 'and so does a live like’s')

  await unsuspend(liker.user._id)
  t.strictSame(await seen(), { count: 2, likedBy: both, listed: 2, likers: both }, 'and counts again after')
})

await t.test('a suspended user’s follows leave follower and following counts, then come back', async (t) => {
  const [target, followed, follower] = [await signup(api), await signup(api), await signup(api)]
  await call(api, target.token, 'POST', `/api/users/follow/${followed.user._id}`)
  await call(api, follower.token, 'POST', `/api/users/follow/${target.user._id}`)
  await call(api, follower.token, 'POST', `/api/users/follow/${followed.user._id}`)
  const profile = async (username: string) =>
    ((await call(api, follower.token, 'GET', `/api/users/${username}`)).json() as { user: Person }).user
  const counts = async () => {
    const [of, by] = [await profile(followed.username), await profile(follower.username)]
    return { followers: of.followers.map((u) => u._id).sort(), following: by.following.map((u) => u._id).sort() }
  }
  const before = {
    followers: [target.user._id, follower.user._id].sort(),
    following: [target.user._id, followed.user._id].sort(),
  }
  t.strictSame(await counts(), before, 'both follows count before')
  await suspend(target.user._id)
  t.strictSame(
    await counts(),
    { followers: [follower.user._id], following: [followed.user._id] },
    'the suspended user is in nobody’s follow lists',
  )
  const everyone = (await call(api, follower.token, 'GET', '/api/users?limit=100')).json() as { users: Person[] }
  const listed = everyone.users.find((user) => user._id === followed.user._id)
  t.strictSame(
    listed?.followers.map((u) => u._id),
    [follower.user._id],
    'nor in the list of users',
  )
  const reply = (await call(api, follower.token, 'POST', `/api/users/unfollow/${followed.user._id}`)).json() as {
    followUser: Person
  }
  t.strictSame(reply.followUser.followers, [], 'nor in a follow reply')
  await call(api, follower.token, 'POST', `/api/users/follow/${followed.user._id}`)
  await unsuspend(target.user._id)
  t.strictSame(await counts(), before, 'back after the suspension')
})

await t.test('open streams hear of a suspension and of its end, with whom it names', async (t) => {
  const [target, reader] = [await signup(api), await signup(api)]
  const stream = await live.stream(t, reader)
  await suspend(target.user._id)
  const suspended = await live.expectEvent(t, stream, 'user.suspended', SuspensionEventSchema)
  t.strictSame(suspended, { userId: target.user._id, username: target.username })
  await unsuspend(target.user._id)
  const lifted = await live.expectEvent(t, stream, 'user.unsuspended', SuspensionEventSchema)
  t.strictSame(lifted, { userId: target.user._id, username: target.username })
})

await t.test('a trending feed orders posts by their likes without the suspended likers’, page by page', async (t) => {
  const [reader, author, first, second, x, y] = [
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
  ]
  await call(api, reader.token, 'POST', `/api/users/follow/${author.user._id}`)
  const most = await postBy(api, author.token, 'liked mostly by soon suspended people')
  const some = await postBy(api, author.token, 'liked by two who stay')
  const none = await postBy(api, author.token, 'liked by nobody')
  for (const who of [first, second, x]) await call(api, who.token, 'POST', `/api/posts/like/${most}`)
  for (const who of [x, y]) await call(api, who.token, 'POST', `/api/posts/like/${some}`)
  const pages = async () => {
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const query: string = `/api/feed?sort=trending&compact=1&limit=1${cursor === null ? '' : `&cursor=${cursor}`}`
      const page = (await call(api, reader.token, 'GET', query)).json() as {
        posts: { _id: string }[]
        nextCursor: string | null
      }
      ids.push(...page.posts.map((post) => post._id))
      cursor = page.nextCursor
    } while (cursor !== null && ids.length < 10)
    return ids
  }
  t.strictSame(await pages(), [most, some, none], 'every like counts before')
  await suspend(first.user._id)
  await suspend(second.user._id)
  t.strictSame(await pages(), [some, most, none], 'the suspended likes count for no place')
  await unsuspend(first.user._id)
  await unsuspend(second.user._id)
  t.strictSame(await pages(), [most, some, none], 'and count again after')
})

await t.test('who to follow orders people by their followers without the suspended ones', async (t) => {
  const [reader, wide, narrow, first, second, x, y] = [
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
    await signup(api),
  ]
  for (const who of [first, second, x]) await call(api, who.token, 'POST', `/api/users/follow/${wide.user._id}`)
  for (const who of [x, y]) await call(api, who.token, 'POST', `/api/users/follow/${narrow.user._id}`)
  const order = async () => {
    const reply = (await call(api, reader.token, 'GET', '/api/users/suggestions?limit=100')).json() as {
      users: { _id: string }[]
    }
    return reply.users.map((user) => user._id).filter((id) => id === wide.user._id || id === narrow.user._id)
  }
  t.strictSame(await order(), [wide.user._id, narrow.user._id], 'every follow counts before')
  await suspend(first.user._id)
  await suspend(second.user._id)
  t.strictSame(await order(), [narrow.user._id, wide.user._id], 'the suspended follows count for no place')
  await unsuspend(first.user._id)
  await unsuspend(second.user._id)
  t.strictSame(await order(), [wide.user._id, narrow.user._id], 'and count again after')
})
