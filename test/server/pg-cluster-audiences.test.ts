import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Two instances on one schema (DECISIONS §12): the events of a post written through one reach, on the
 * other, only the streams of who may read it, live and when replayed from the shared log; an unfollow
 * made through one drops the author's followers posts from the streams on the other.
 */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { openSse } = await import('../helpers/sse.js')
  const { PostDeletedEventSchema } = await import('../../server/schemas/events.js')
  type Post = import('../../server/schemas/posts.js').Post
  type SignedUp = import('../helpers/api.js').SignedUp
  type SseClient = import('../helpers/sse.js').SseClient

  const a = await buildLiveApi(t)
  // B keeps one event in its own buffer: a client that resumes there is replayed from the shared log.
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string, options: { events: { bufferSize: 1 } } })

  const post = async (who: SignedUp, content: string, visibility: string) =>
    ((await a.write(who, 'POST', '/api/posts', { content, visibility })).json() as { post: Post }).post

  const [author, follower, mentioned, stranger, third] = [
    await signup(a.api),
    await signup(a.api),
    await signup(a.api),
    await signup(a.api),
    await signup(a.api),
  ]
  await a.write(follower, 'POST', `/api/users/follow/${author.user._id}`)
  /** The author's followers posts so far, oldest first. */
  const followersPosts: Post[] = []

  await t.test('a followers post written through A reaches only its readers on B', async (t) => {
    const people = { author, follower, mentioned, stranger }
    const streams = Object.fromEntries(
      await Promise.all(Object.entries(people).map(async ([role, who]) => [role, await b.stream(t, who)] as const)),
    )
    const written = await post(author, `for followers @${mentioned.username}`, 'followers')
    followersPosts.push(written)
    t.equal((await a.write(mentioned, 'POST', `/api/posts/like/${written._id}`)).statusCode, 201, 'a like through A')
    const comment = await a.write(mentioned, 'POST', `/api/comments/add/${written._id}`, { text: 'a reply' })
    t.equal(comment.statusCode, 201, 'a comment through A')
    const marker = await a.newPost(third, 'a public marker')
    const all = ['post.created', 'post.liked', 'comment.added'].map((name) => `${name} ${written._id}`)
    for (const [role, client] of Object.entries(streams)) {
      const expected = role === 'stranger' ? [] : all
      t.strictSame(
        await b.postEventsUntil(client, marker._id),
        expected,
        `${role} on B: ${expected.length ? 'all' : 'none'}`,
      )
    }
    t.notMatch((streams.stranger as SseClient).text, /for followers|a reply/, 'not a word of it to the stranger')
  })

  await t.test('replayed from the shared log on B, a followers post reaches only its readers', async (t) => {
    const first = [await b.stream(t, follower), await b.stream(t, stranger)]
    await a.newPost(third, 'where they left')
    const left: string[] = []
    for (const client of first) {
      const last = await b.nextEvent(client)
      t.equal(last.event, 'post.created', 'the last event seen')
      left.push(last.id as string)
      client.close()
    }
    const written = await post(author, 'missed, for followers', 'followers')
    followersPosts.push(written)
    await a.write(follower, 'POST', `/api/posts/like/${written._id}`)
    const marker = await a.newPost(third, 'a marker')
    const port = (b.api.app.server.address() as { port: number }).port
    const expected = [[`post.created ${written._id}`, `post.liked ${written._id}`], []]
    for (const [i, who] of [follower, stranger].entries()) {
      const { ticket } = (await b.api.as(who.token, { method: 'POST', url: '/api/events/ticket' })).json() as {
        ticket: string
      }
      const resumed = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`, {
        'last-event-id': left[i] as string,
      })
      t.teardown(() => resumed.close())
      t.strictSame(await b.postEventsUntil(resumed, marker._id), expected[i], i === 0 ? 'the follower' : 'the stranger')
      if (i === 1) t.notMatch(resumed.text, /missed, for followers/, 'not a word of it to the stranger')
    }
  })

  await t.test("an unfollow through A drops the author's followers posts from the streams on B", async (t) => {
    const closed = await post(author, 'for followers only', 'followers')
    const open = await post(author, 'for everyone', 'public')
    const theirs = await b.stream(t, follower)
    t.equal((await a.write(follower, 'POST', `/api/users/unfollow/${author.user._id}`)).statusCode, 200)
    t.equal((await b.nextEvent(theirs)).event, 'user.unfollowed', 'the unfollow')
    for (const each of [closed, ...followersPosts.reverse()]) {
      t.strictSame(
        await b.expectEvent(t, theirs, 'post.deleted', PostDeletedEventSchema),
        { postId: each._id, createdAt: each.createdAt },
        `dropped: ${each.content}`,
      )
    }
    for (const each of [closed, open]) {
      await a.write(author, 'POST', `/api/posts/edit/${each._id}`, { content: `edited ${each.content}` })
    }
    const marker = await a.newPost(third, 'a last marker')
    t.strictSame(await b.postEventsUntil(theirs, marker._id), [`post.updated ${open._id}`], 'only the open one goes on')
  })
})
