import t from 'tap'
import type { Post } from '../../server/schemas/posts.js'
import { BlocksReplySchema, MutesReplySchema, RelationReplySchema } from '../../server/schemas/relations.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'

/** Blocks and mutes (docs/api-contract.md §11): the calls, and what a block or a mute does to each read and write. */
let skew = 0
const api = await buildApiApp(t, { options: { now: () => new Date(Date.now() + skew) } })
const MINIMAL = { prefer: 'return=minimal' }
const CANNOT = 'You cannot interact with this user.'

const call = (who: SignedUp, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  api.as(who.token, { method, url, headers: MINIMAL, ...(payload ? { payload } : {}) })
const get = (who: SignedUp | undefined, url: string) =>
  who ? api.as(who.token, { method: 'GET', url }) : api.app.inject({ method: 'GET', url })
async function newPost(who: SignedUp, content: string): Promise<Post> {
  const res = await call(who, 'POST', '/api/posts', { content })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
const block = (who: SignedUp, other: SignedUp) => call(who, 'POST', `/api/users/block/${other.user._id}`)
const mute = (who: SignedUp, other: SignedUp, duration?: unknown) =>
  call(who, 'POST', `/api/users/mute/${other.user._id}`, duration === undefined ? {} : { duration })
const ids = (res: { json(): unknown }, key = 'posts') =>
  ((res.json() as Record<string, { _id: string }[]>)[key] ?? []).map((item) => item._id)
let tags = 0
/** A tag nobody else uses, so a tag page holds only what a test wrote. */
const freshTag = () => `blk${Date.now().toString(36)}x${++tags}`
const people = async () => [await signup(api), await signup(api), await signup(api)] as const

await t.test('block, unblock and the list of blocks', async (t) => {
  const [alice, bob, carol] = await people()
  const blocked = expectOk(t, await block(alice, bob), 200, RelationReplySchema, 'block')
  t.strictSame(blocked.user, { ...blocked.user, _id: bob.user._id, username: bob.username }, 'the blocked person')
  expectOk(t, await block(alice, bob), 200, RelationReplySchema, 'blocking again')
  await block(alice, carol)
  const list = expectOk(t, await get(alice, '/api/users/blocks'), 200, BlocksReplySchema, 'the list')
  t.strictSame(
    list.users.map((u) => u._id),
    [carol.user._id, bob.user._id],
    'the most recent first, once each',
  )
  const first = expectOk(t, await get(alice, '/api/users/blocks?limit=1'), 200, BlocksReplySchema)
  t.strictSame(
    first.users.map((u) => u._id),
    [carol.user._id],
    'a page of one',
  )
  const rest = expectOk(
    t,
    await get(alice, `/api/users/blocks?limit=1&cursor=${first.nextCursor}`),
    200,
    BlocksReplySchema,
  )
  t.strictSame(
    rest.users.map((u) => u._id),
    [bob.user._id],
    'and the next',
  )
  t.equal(rest.nextCursor, null, 'the end')
  expectOk(t, await call(alice, 'POST', `/api/users/unblock/${bob.user._id}`), 200, RelationReplySchema, 'unblock')
  const after = expectOk(t, await get(alice, '/api/users/blocks'), 200, BlocksReplySchema)
  t.strictSame(
    after.users.map((u) => u._id),
    [carol.user._id],
    'bob is off the list',
  )
  t.strictSame(ids(await get(bob, '/api/users/blocks'), 'users'), [], "bob's own list is his")
})

await t.test('refusals change nothing', async (t) => {
  const [alice, bob] = await people()
  expectError(t, await block(alice, alice), 400, 'You cannot block yourself.', 'blocking oneself')
  expectError(t, await mute(alice, alice), 400, 'You cannot mute yourself.', 'muting oneself')
  const unknown = '00000000-0000-4000-8000-000000000000'
  expectError(t, await call(alice, 'POST', `/api/users/block/${unknown}`), 404, 'User not found', 'an unknown person')
  expectError(t, await call(alice, 'POST', `/api/users/mute/${unknown}`), 404, 'User not found')
  for (const duration of [-1, '60', 1.5]) {
    t.equal((await mute(alice, bob, duration)).statusCode, 400, `duration ${JSON.stringify(duration)} is a 400`)
  }
  const noToken = await api.app.inject({ method: 'POST', url: `/api/users/block/${bob.user._id}` })
  t.equal(noToken.statusCode, 401, 'a block needs a token')
  t.equal((await api.app.inject({ method: 'GET', url: '/api/users/mutes' })).statusCode, 401, 'so do the lists')
  t.strictSame(ids(await get(alice, '/api/users/blocks'), 'users'), [], 'nobody blocked')
  t.strictSame(ids(await get(alice, '/api/users/mutes'), 'users'), [], 'nobody muted')
})

await t.test('a block ends the follows both ways, with their counts and notifications', async (t) => {
  const [alice, bob, carol] = await people()
  await call(alice, 'POST', `/api/users/follow/${bob.user._id}`)
  await call(bob, 'POST', `/api/users/follow/${alice.user._id}`)
  await call(carol, 'POST', `/api/users/follow/${bob.user._id}`)
  await block(bob, alice)
  const profile = async (who: SignedUp, viewer: SignedUp) =>
    (await get(viewer, `/api/users/${who.username}`)).json() as {
      user: { followers: { _id: string }[]; following: { _id: string }[] }
    }
  const bobNow = (await profile(bob, bob)).user
  t.strictSame(
    bobNow.followers.map((u) => u._id),
    [carol.user._id],
    'alice no longer follows bob; carol still does',
  )
  t.strictSame(bobNow.following, [], 'bob no longer follows alice')
  const aliceNow = (await profile(alice, bob)).user
  t.strictSame([aliceNow.followers, aliceNow.following], [[], []], "alice's lists are empty too")
  const notes = (await get(alice, '/api/notifications')).json() as { notifications: unknown[]; unread: number }
  t.strictSame([notes.notifications, notes.unread], [[], 0], "bob's follow of alice is no longer news to her")
  const suggested = ids(await get(carol, '/api/users/suggestions?limit=100'), 'users')
  t.ok(suggested.includes(alice.user._id), 'carol is still suggested alice')
  expectError(t, await call(alice, 'POST', `/api/users/follow/${bob.user._id}`), 403, CANNOT, 'following back')
  expectError(t, await call(bob, 'POST', `/api/users/follow/${alice.user._id}`), 403, CANNOT, 'the blocker following')
  t.strictSame(
    (await profile(bob, bob)).user.followers.map((u) => u._id),
    [carol.user._id],
    'still no follow',
  )
})

await t.test('every write aimed across a block is a 403 and changes nothing, both ways', async (t) => {
  const [alice, bob] = await people()
  const hers = await newPost(alice, 'before the block')
  const his = await newPost(bob, 'his post')
  await call(bob, 'POST', `/api/posts/like/${hers._id}`)
  const herComment = (
    (await call(alice, 'POST', `/api/comments/add/${his._id}`, { text: 'hi' })).json() as { post: Post }
  ).post.comments[0] as { _id: string }
  await block(alice, bob)
  for (const [who, post, comment] of [
    [bob, hers, undefined],
    [alice, his, herComment],
  ] as const) {
    const name = who === bob ? 'the blocked' : 'the blocker'
    expectError(t, await call(who, 'POST', `/api/posts/like/${post._id}`), 403, CANNOT, `${name} liking`)
    expectError(
      t,
      await call(who, 'POST', `/api/comments/add/${post._id}`, { text: 'x' }),
      403,
      CANNOT,
      `${name} commenting`,
    )
    expectError(t, await call(who, 'POST', `/api/users/bookmark/${post._id}`), 403, CANNOT, `${name} bookmarking`)
    if (comment) {
      expectError(t, await call(bob, 'POST', `/api/comments/upvote/${his._id}/${comment._id}`), 403, CANNOT, 'upvoting')
      expectError(
        t,
        await call(bob, 'POST', `/api/comments/downvote/${his._id}/${comment._id}`),
        403,
        CANNOT,
        'downvoting',
      )
    }
  }
  expectError(t, await call(bob, 'POST', `/api/posts/dislike/${hers._id}`), 403, CANNOT, 'taking back a like')
  const herPost = (await get(alice, `/api/posts/${hers._id}`)).json() as { post: Post }
  t.equal(herPost.post.likes.likeCount, 1, "bob's like from before stands, and nothing was added")
  t.equal(herPost.post.commentCount, 0, 'no comment')
  const hisPost = (await get(bob, `/api/posts/${his._id}`)).json() as { post: Post }
  t.strictSame([hisPost.post.likes.likeCount, hisPost.post.commentCount], [0, 1], 'nothing changed on his')
  t.strictSame(ids(await get(bob, '/api/users/bookmark'), 'bookmarks'), [], 'no bookmark')
})

await t.test('to the blocked person the blocker is not there; the blocker can still open theirs', async (t) => {
  const [alice, bob, carol] = await people()
  const hers = await newPost(alice, 'hers')
  const his = await newPost(bob, 'his')
  await block(alice, bob)
  expectError(t, await get(bob, `/api/posts/${hers._id}`), 404, 'Post not found', 'her post')
  expectError(t, await get(bob, `/api/users/${alice.username}`), 404, 'User not found', 'her profile')
  expectError(t, await get(bob, `/api/users/${alice.user._id}`), 404, 'User not found', 'her profile by id')
  expectError(t, await get(bob, `/api/posts/user/${alice.username}`), 404, 'User not found', 'her posts')
  expectError(t, await get(bob, `/api/comments/${hers._id}`), 404, 'Post not found', "her post's comments")
  expectError(t, await get(bob, `/api/posts/${hers._id}/likes`), 404, 'Post not found', "her post's likers")
  t.equal((await get(alice, `/api/posts/${his._id}`)).statusCode, 200, 'she opens his post')
  t.equal((await get(alice, `/api/users/${bob.username}`)).statusCode, 200, 'and his profile')
  t.strictSame(ids(await get(alice, `/api/posts/user/${bob.username}`)), [his._id], 'and his posts')
  t.equal((await get(carol, `/api/posts/${hers._id}`)).statusCode, 200, 'everyone else sees hers')
  t.equal((await get(undefined, `/api/users/${alice.username}`)).statusCode, 200, 'as does a visitor')
})

await t.test('neither side sees the other in any list, search, tag page or trending tags', async (t) => {
  const [alice, bob, carol] = await people()
  const tag = freshTag()
  const hers = await newPost(alice, `her #${tag}`)
  const his = await newPost(bob, `his #${tag} #${tag}only`)
  const theirs = await newPost(carol, `carol #${tag}`)
  await call(bob, 'POST', `/api/posts/like/${theirs._id}`)
  await call(bob, 'POST', `/api/comments/add/${theirs._id}`, { text: 'from bob' })
  await call(alice, 'POST', `/api/users/bookmark/${his._id}`)
  await block(alice, bob)
  for (const [who, other, otherPost] of [
    [alice, bob, his],
    [bob, alice, hers],
  ] as const) {
    const name = `${who === alice ? 'the blocker' : 'the blocked'}`
    t.notOk(ids(await get(who, '/api/posts?limit=100')).includes(otherPost._id), `${name}: explore`)
    t.strictSame(
      ids(await get(who, `/api/posts/tag/${tag}`)),
      [theirs._id, (who === alice ? hers : his)._id],
      `${name}: the tag page`,
    )
    t.strictSame(
      ids(await get(who, `/api/search?q=%23${tag}`)),
      ids(await get(who, `/api/posts/tag/${tag}`)),
      `${name}: tag search`,
    )
    t.notOk(ids(await get(who, `/api/search?q=${tag}`)).includes(otherPost._id), `${name}: word search`)
    t.strictSame(
      ids(await get(who, `/api/search?type=users&q=@${other.username}`), 'users'),
      [],
      `${name}: people search`,
    )
    t.notOk(
      ids(await get(who, '/api/users/suggestions?limit=100'), 'users').includes(other.user._id),
      `${name}: suggestions`,
    )
    const feed = ids(await get(who, '/api/feed?limit=100'))
    t.notOk(feed.includes(otherPost._id), `${name}: feed`)
  }
  t.strictSame(ids(await get(alice, '/api/users/bookmark'), 'bookmarks'), [], 'her bookmark of his post is hidden')
  const likers = ids(await get(alice, `/api/posts/${theirs._id}/likes`), 'users')
  t.strictSame(likers, [], "bob is not among carol's likers to alice")
  t.strictSame(ids(await get(carol, `/api/posts/${theirs._id}/likes`), 'users'), [bob.user._id], 'carol sees him')
  t.strictSame(ids(await get(alice, `/api/comments/${theirs._id}`), 'comments'), [], 'nor among the comments')
  const detail = ((await get(alice, `/api/posts/${theirs._id}`)).json() as { post: Post }).post
  t.strictSame([detail.comments, detail.likes.likedBy], [[], []], "nor on the post's own view")
  t.equal(
    ((await get(carol, `/api/posts/${theirs._id}`)).json() as { post: Post }).post.comments.length,
    1,
    'carol sees it',
  )
  const trending = async (who: SignedUp) =>
    ((await get(who, '/api/tags/trending?limit=100')).json() as { tags: { tag: string; posts: number }[] }).tags
  t.ok(
    (await trending(carol)).some((x) => x.tag === `${tag}only`),
    "carol sees bob's tag trend",
  )
  t.notOk(
    (await trending(alice)).some((x) => x.tag === `${tag}only`),
    'alice does not',
  )
  t.equal((await trending(alice)).find((x) => x.tag === tag)?.posts, 2, "and counts the tag without bob's post")
})

await t.test('pages stay full and cursors go on past hidden posts', async (t) => {
  const [alice, bob, carol] = await people()
  const tag = freshTag()
  const c1 = await newPost(carol, `#${tag} 1`)
  await newPost(bob, `#${tag} b1`)
  await newPost(bob, `#${tag} b2`)
  const c2 = await newPost(carol, `#${tag} 2`)
  await newPost(bob, `#${tag} b3`)
  const c3 = await newPost(carol, `#${tag} 3`)
  await block(bob, alice)
  const first = (await get(alice, `/api/posts/tag/${tag}?limit=2`)).json() as { posts: Post[]; nextCursor: string }
  t.strictSame(
    first.posts.map((p) => p._id),
    [c3._id, c2._id],
    'a full first page',
  )
  const next = await get(alice, `/api/posts/tag/${tag}?limit=2&cursor=${first.nextCursor}`)
  t.strictSame(ids(next), [c1._id], 'the rest')
  t.equal((next.json() as { nextCursor: unknown }).nextCursor, null, 'and the end')
  const words = (await get(alice, `/api/search?q=${tag}&limit=2`)).json() as { posts: Post[]; nextCursor: string }
  t.strictSame(
    words.posts.map((p) => p._id),
    [c3._id, c2._id],
    'a full page of a search',
  )
})

await t.test('a mention, a like or a comment across a block notifies nobody', async (t) => {
  const [alice, bob] = await people()
  const hers = await newPost(alice, 'hers')
  await block(alice, bob)
  await newPost(bob, `hello @${alice.username}`)
  await newPost(alice, `hello @${bob.username}`)
  await call(bob, 'POST', `/api/posts/like/${hers._id}`)
  for (const who of [alice, bob]) {
    const notes = (await get(who, '/api/notifications')).json() as { notifications: unknown[]; unread: number }
    t.strictSame([notes.notifications, notes.unread], [[], 0], 'nothing for either')
  }
})

await t.test('a mute hides the muted person from the muter only, and a timed one ends by itself', async (t) => {
  const [alice, bob, carol] = await people()
  const tag = freshTag()
  const his = await newPost(bob, `#${tag} his`)
  const hers = await newPost(alice, `#${tag} hers`)
  const muted = expectOk(t, await mute(alice, bob, 60), 200, RelationReplySchema, 'mute for a minute')
  t.equal(muted.user._id, bob.user._id, 'the muted person')
  const list = expectOk(t, await get(alice, '/api/users/mutes'), 200, MutesReplySchema, 'the list')
  t.equal(list.users.length, 1, 'one muted')
  t.ok(list.users[0]?.mutedUntil !== null && Date.parse(list.users[0]?.mutedUntil ?? '') > Date.now(), 'with its end')
  t.strictSame(ids(await get(alice, `/api/posts/tag/${tag}`)), [hers._id], 'his post leaves her tag page')
  t.strictSame(ids(await get(bob, `/api/posts/tag/${tag}`)), [hers._id, his._id], 'he notices nothing')
  t.strictSame(ids(await get(carol, `/api/posts/tag/${tag}`)), [hers._id, his._id], 'nor does anyone else')
  t.equal((await get(alice, `/api/posts/${his._id}`)).statusCode, 200, 'she can still open his post')
  t.equal((await call(bob, 'POST', `/api/posts/like/${hers._id}`)).statusCode, 201, 'he can still like hers')
  await call(bob, 'POST', `/api/comments/add/${hers._id}`, { text: 'his comment' })
  const notes = (await get(alice, '/api/notifications')).json() as { notifications: unknown[] }
  t.strictSame(notes.notifications, [], 'his like and comment do not notify her')
  t.strictSame(ids(await get(alice, `/api/comments/${hers._id}`), 'comments'), [], 'his comment is hidden from her')
  t.equal(ids(await get(carol, `/api/comments/${hers._id}`), 'comments').length, 1, 'not from carol')
  skew += 61_000
  t.strictSame(ids(await get(alice, `/api/posts/tag/${tag}`)), [hers._id, his._id], 'a minute on, he is back')
  t.strictSame(ids(await get(alice, '/api/users/mutes'), 'users'), [], 'and off the list')
  await mute(alice, bob)
  const forever = expectOk(t, await get(alice, '/api/users/mutes'), 200, MutesReplySchema)
  t.strictSame(
    forever.users.map((u) => [u._id, u.mutedUntil]),
    [[bob.user._id, null]],
    'a mute without a duration',
  )
  skew += 10 * 365 * 24 * 3600_000
  t.strictSame(ids(await get(alice, `/api/posts/tag/${tag}`)), [hers._id], 'lasts')
  expectOk(t, await call(alice, 'POST', `/api/users/unmute/${bob.user._id}`), 200, RelationReplySchema, 'unmute')
  t.strictSame(ids(await get(alice, `/api/posts/tag/${tag}`)), [hers._id, his._id], 'until unmuted')
})
