import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Two instances on one schema, each keeping its reads (store/pg/pg-store.ts): a write through A is in the
 * writer's very next read through B, with no wait between them, however much B had kept; anyone else
 * reads it through B once its event has arrived there.
 */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  type Post = import('../../server/schemas/posts.js').Post

  const a = await buildLiveApi(t)
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string })
  const [reader, author, other, watcher] = [
    await signup(a.api),
    await signup(a.api),
    await signup(a.api),
    await signup(a.api),
  ]
  const feedThroughB = async (who: { token: string }, sort = 'latest') => {
    const res = await b.api.as(who.token, { method: 'GET', url: `/api/feed?limit=20&compact=1&sort=${sort}` })
    if (res.statusCode !== 200) throw new Error(`the feed through B answered ${res.statusCode}`)
    return (res.json() as { posts: Post[] }).posts
  }
  const rounds = 12

  for (const follower of [reader, watcher]) {
    const res = await a.write(follower, 'POST', `/api/users/follow/${author.user._id}`)
    if (res.statusCode !== 200) throw new Error(`a follow answered ${res.statusCode}`)
  }
  const post = await a.newPost(author, 'written through A')

  await t.test("the writer's own likes, read back through B at once", async (t) => {
    for (const sort of ['latest', 'trending']) {
      await feedThroughB(reader, sort) // B keeps the page and the post's view
      for (let round = 0; round < rounds; round++) {
        const liked = round % 2 === 0
        const res = await a.write(reader, 'POST', `/api/posts/${liked ? 'like' : 'dislike'}/${post._id}`)
        t.equal(res.statusCode, 201)
        const seen = (await feedThroughB(reader, sort)).find((p) => p._id === post._id)
        if (!t.equal(seen?.likes.likeCount, liked ? 1 : 0, `${sort}, round ${round}: the count after the write`)) break
        t.same(
          seen?.likes.likedBy.map((u) => u._id),
          liked ? [reader.user._id] : [],
          'and the reader among the likers',
        )
      }
    }
  })

  await t.test("the writer's follows and blocks, read back through B at once", async (t) => {
    const theirs = await a.newPost(other, 'by someone the reader does not follow yet')
    for (let round = 0; round < rounds / 2; round++) {
      t.equal((await a.write(reader, 'POST', `/api/users/follow/${other.user._id}`)).statusCode, 200)
      t.ok(
        (await feedThroughB(reader)).some((p) => p._id === theirs._id),
        `round ${round}: followed, their post is in`,
      )
      t.equal((await a.write(reader, 'POST', `/api/users/unfollow/${other.user._id}`)).statusCode, 200)
      t.notOk(
        (await feedThroughB(reader)).some((p) => p._id === theirs._id),
        'unfollowed, it is out',
      )
    }
    t.equal((await a.write(reader, 'POST', `/api/users/block/${author.user._id}`)).statusCode, 200)
    t.notOk(
      (await feedThroughB(reader)).some((p) => p.username === author.username),
      "blocked, the author's posts are out",
    )
    t.equal((await a.write(reader, 'POST', `/api/users/unblock/${author.user._id}`)).statusCode, 200)
  })

  await t.test('a like that lifts a post onto a most-liked page, read back through B at once', async (t) => {
    const [first, second, third] = [
      await a.newPost(other, 'one'),
      await a.newPost(other, 'two'),
      await a.newPost(other, 'three'),
    ]
    const liker = await signup(a.api)
    for (const post of [first, second])
      t.equal((await a.write(liker, 'POST', `/api/posts/like/${post._id}`)).statusCode, 201)
    t.equal((await a.write(watcher, 'POST', `/api/users/follow/${other.user._id}`)).statusCode, 200)
    const topTwo = async () => {
      const res = await b.api.as(watcher.token, { method: 'GET', url: '/api/feed?limit=2&compact=1&sort=trending' })
      return (res.json() as { posts: Post[] }).posts.map((p) => p.content)
    }
    t.strictSame(await topTwo(), ['two', 'one'], 'the two liked posts, newest first')
    // The watcher's own like comes last: B takes in the log up to it, the other like with it.
    t.equal((await a.write(liker, 'POST', `/api/posts/like/${third._id}`)).statusCode, 201)
    t.equal((await a.write(watcher, 'POST', `/api/posts/like/${third._id}`)).statusCode, 201)
    t.strictSame((await topTwo())[0], 'three', 'two likes put the third first')
  })

  await t.test('a post by someone followed reaches a reader through B once its event has', async (t) => {
    await feedThroughB(watcher)
    const onB = await b.stream(t, watcher)
    const fresh = await a.newPost(author, 'a second post through A')
    t.match(await b.nextEvent(onB), { event: 'post.created' }, 'the event reached B')
    t.ok(
      (await feedThroughB(watcher)).some((p) => p._id === fresh._id),
      'and the next read through B has the post',
    )
  })
})
