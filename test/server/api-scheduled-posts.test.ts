import t from 'tap'
import { LIMITS } from '../../common/limits.js'
import { MSG } from '../../server/errors.js'
import { CreatePostReplySchema } from '../../server/schemas/post-plans.js'
import { PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { QUICK_JOBS } from '../helpers/jobs.js'

/**
 * Scheduled posts (DECISIONS §15, §17): POST /api/posts with `scheduledAt` keeps the post and publishes
 * nothing; less than SCHEDULE_MIN_SECONDS ahead (5 minutes) is a 400; a `scheduled-post` job publishes it
 * on time, with its media and poll, dated at publishing; Mastodon's scheduled_statuses list, read, move
 * and cancel them, a Chirp session token accepted. The PostgreSQL pass runs this file on PostgreSQL.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const ahead = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString()
const schedule = (api: TestApp, who: SignedUp, postData: object) =>
  api.as(who.token, { method: 'POST', url: '/api/posts', payload: { postData } })
const postsOf = async (api: TestApp, who: SignedUp) =>
  expectOk(
    t,
    await api.as(who.token, { method: 'GET', url: `/api/posts/user/${who.user.username}?limit=20` }),
    200,
    PostsReplySchema,
  ).posts
const scheduledOf = async (api: TestApp, who: SignedUp) => {
  const res = await api.app.inject({ method: 'GET', url: '/api/v1/scheduled_statuses', headers: bearer(who.token) })
  return res.json() as { id: string; scheduled_at: string; params: { text: string } }[]
}

/** Waits until the person's posts satisfy `done`. */
async function until(api: TestApp, who: SignedUp, done: (posts: Post[]) => boolean, ms = 15_000): Promise<Post[]> {
  const end = Date.now() + ms
  for (;;) {
    const posts = await postsOf(api, who)
    if (done(posts)) return posts
    if (Date.now() > end) throw new Error(`never published: ${JSON.stringify(posts.map((post) => post.content))}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

await t.test('a post is scheduled at least 5 minutes ahead, and nothing is published yet', async (t) => {
  const api = await buildApiApp(t)
  const author = await signup(api)
  for (const [when, what] of [
    [ahead(4 * 60), '4 minutes ahead'],
    [ahead(-60), 'in the past'],
  ] as const) {
    expectError(t, await schedule(api, author, { content: 'soon', scheduledAt: when }), 400, MSG.scheduleTooSoon, what)
  }
  t.equal((await schedule(api, author, { content: 'x', scheduledAt: 'tomorrow' })).statusCode, 400, 'not a date')
  const at = ahead(6 * 60)
  const res = await schedule(api, author, {
    content: 'later',
    media: [{ url: 'https://example.com/a.jpg', alt: 'a cat' }],
    poll: { options: ['yes', 'no'], days: 2 },
    visibility: 'followers',
  })
  t.equal(res.statusCode, 201, 'without scheduledAt, a post is written at once')
  const scheduled = expectOk(
    t,
    await schedule(api, author, { content: 'later', scheduledAt: at }),
    201,
    CreatePostReplySchema,
  )
  t.strictSame(Object.keys(scheduled), ['scheduledPost'], 'the answer is only the scheduled post')
  t.match(scheduled.scheduledPost, { scheduledAt: at, postData: { content: 'later' } })
  t.equal((await postsOf(api, author)).length, 1, 'only the post written at once is there')
  expectError(
    t,
    await schedule(api, author, { content: '', scheduledAt: ahead(600) }),
    400,
    MSG.emptyPost,
    'a scheduled post is checked as a post written now',
  )
  const list = await scheduledOf(api, author)
  t.strictSame(
    list.map((each) => [each.id, each.scheduled_at, each.params.text]),
    [[scheduled.scheduledPost?._id, at, 'later']],
    'listed for its author',
  )
  t.strictSame(await scheduledOf(api, await signup(api)), [], 'and nobody else')
})

await t.test('published by its job on time, once, dated then, with its media and poll', async (t) => {
  const api = await buildApiApp(t, { config: { scheduleMinSeconds: 1, ...QUICK_JOBS } })
  const author = await signup(api)
  const at = ahead(1.5)
  const made = expectOk(
    t,
    await schedule(api, author, {
      content: 'on time',
      media: [{ url: 'https://example.com/a.jpg', alt: 'a cat' }],
      poll: { options: ['yes', 'no'], days: 1 },
      spoilerText: 'wait for it',
      scheduledAt: at,
    }),
    201,
    CreatePostReplySchema,
  )
  t.ok(made.scheduledPost)
  const [post] = await until(api, author, (posts) => posts.length > 0)
  t.equal(post?.content, 'on time')
  t.ok((post?.createdAt ?? '') >= at, 'dated when it was published, not when it was scheduled')
  t.ok(Date.parse(post?.createdAt ?? '') - Date.parse(at) < 60_000, 'within a minute of its time')
  t.strictSame(post?.media, [{ url: 'https://example.com/a.jpg', alt: 'a cat' }], 'its image kept')
  t.strictSame(
    post?.poll?.options.map((option) => option.text),
    ['yes', 'no'],
    'its poll kept',
  )
  t.equal(post?.spoilerText, 'wait for it')
  await new Promise((resolve) => setTimeout(resolve, 500))
  t.equal((await postsOf(api, author)).length, 1, 'published once')
  t.strictSame(await scheduledOf(api, author), [], 'no longer scheduled')
})

await t.test("Mastodon's scheduled_statuses: scheduled_at on a status, then list, get, move and cancel", async (t) => {
  const api = await buildApiApp(t, { config: { publicUrl: 'https://chirp.example' } })
  const [author, other] = [await signup(api), await signup(api)]
  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: SignedUp, payload?: object) =>
    api.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) })
  const made = await inject('POST', '/api/v1/statuses', author, {
    status: 'from an app',
    scheduled_at: ahead(600),
    poll: { options: ['a', 'b'], expires_in: 86_400 },
  })
  t.equal(made.statusCode, 200, 'a Chirp session token is accepted')
  const entity = made.json() as {
    id: string
    scheduled_at: string
    params: { text: string; poll: { options: string[]; expires_in: number } | null; visibility: string }
  }
  t.match(entity.params, {
    text: 'from an app',
    poll: { options: ['a', 'b'], expires_in: 86_400 },
    visibility: 'public',
  })
  const soon = await inject('POST', '/api/v1/statuses', author, { status: 'too soon', scheduled_at: ahead(60) })
  t.equal(soon.statusCode, 400, 'too soon is refused')
  t.strictSame(soon.json(), { error: MSG.scheduleTooSoon })
  const second = (await schedule(api, author, { content: 'second', scheduledAt: ahead(900) })).json() as {
    scheduledPost: { _id: string }
  }
  const third = (await schedule(api, author, { content: 'third', scheduledAt: ahead(1200) })).json() as {
    scheduledPost: { _id: string }
  }
  const page = await inject('GET', '/api/v1/scheduled_statuses?limit=2', author)
  t.strictSame(
    (page.json() as { id: string }[]).map((each) => each.id),
    [entity.id, second.scheduledPost._id],
    'the soonest first, a page at a time',
  )
  const next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link))?.[1]
  t.ok(next, 'a Link header names the next page')
  const rest = await inject('GET', new URL(next ?? '').pathname + new URL(next ?? '').search, author)
  t.strictSame(
    (rest.json() as { id: string }[]).map((each) => each.id),
    [third.scheduledPost._id],
  )
  const one = await inject('GET', `/api/v1/scheduled_statuses/${entity.id}`, author)
  t.equal((one.json() as { id: string }).id, entity.id, 'read one')
  t.equal((await inject('GET', `/api/v1/scheduled_statuses/${entity.id}`, other)).statusCode, 404, "nobody else's")
  const later = ahead(3600)
  const moved = await inject('PUT', `/api/v1/scheduled_statuses/${entity.id}`, author, { scheduled_at: later })
  t.equal(moved.statusCode, 200, 'moved')
  t.equal((moved.json() as { scheduled_at: string }).scheduled_at, later)
  const tooSoon = await inject('PUT', `/api/v1/scheduled_statuses/${entity.id}`, author, { scheduled_at: ahead(10) })
  t.equal(tooSoon.statusCode, 400, 'a move too soon is refused')
  t.equal(
    (await inject('PUT', `/api/v1/scheduled_statuses/${entity.id}`, other, { scheduled_at: later })).statusCode,
    404,
  )
  t.equal((await inject('DELETE', `/api/v1/scheduled_statuses/${entity.id}`, other)).statusCode, 404, "nobody else's")
  const cancel = await inject('DELETE', `/api/v1/scheduled_statuses/${entity.id}`, author)
  t.strictSame([cancel.statusCode, cancel.json()], [200, {}], 'cancelled')
  t.equal((await inject('GET', `/api/v1/scheduled_statuses/${entity.id}`, author)).statusCode, 404, 'gone')
  t.equal((await inject('DELETE', `/api/v1/scheduled_statuses/${entity.id}`, author)).statusCode, 404, 'once')
  const reply = await inject('POST', '/api/v1/statuses', author, {
    status: 'a reply',
    in_reply_to_id: '1',
    scheduled_at: ahead(600),
  })
  t.equal(reply.statusCode, 422, 'a comment cannot be scheduled')
})

await t.test('a cancelled post is never published; a moved one is published at its new time alone', async (t) => {
  const api = await buildApiApp(t, { config: { scheduleMinSeconds: 1, ...QUICK_JOBS } })
  const author = await signup(api)
  const cancelled = (await schedule(api, author, { content: 'never', scheduledAt: ahead(1.2) })).json() as {
    scheduledPost: { _id: string }
  }
  const moved = (await schedule(api, author, { content: 'moved', scheduledAt: ahead(1.2) })).json() as {
    scheduledPost: { _id: string }
  }
  const kept = (await schedule(api, author, { content: 'kept', scheduledAt: ahead(1.2) })).json() as {
    scheduledPost: { _id: string }
  }
  t.ok(kept.scheduledPost._id)
  const headers = bearer(author.token)
  const url = (id: string) => `/api/v1/scheduled_statuses/${id}`
  t.equal((await api.app.inject({ method: 'DELETE', url: url(cancelled.scheduledPost._id), headers })).statusCode, 200)
  const newTime = ahead(3)
  const put = await api.app.inject({
    method: 'PUT',
    url: url(moved.scheduledPost._id),
    headers,
    payload: { scheduled_at: newTime },
  })
  t.equal(put.statusCode, 200, 'moved later')
  const first = await until(api, author, (posts) => posts.length >= 1)
  t.strictSame(
    first.map((post) => post.content),
    ['kept'],
    'at the first time, only the one left there',
  )
  const all = await until(api, author, (posts) => posts.length >= 2)
  t.strictSame(all.map((post) => post.content).sort(), ['kept', 'moved'], 'the moved one at its new time')
  t.ok((all.find((post) => post.content === 'moved')?.createdAt ?? '') >= newTime, 'not before it')
  await new Promise((resolve) => setTimeout(resolve, 500))
  t.equal((await postsOf(api, author)).length, 2, 'each once, the cancelled one never')
})

await t.test(`a person may have at most ${LIMITS.scheduledPosts} scheduled posts waiting`, async (t) => {
  const api = await buildApiApp(t)
  const author = await signup(api)
  for (let i = 0; i < LIMITS.scheduledPosts; i++) {
    const res = await schedule(api, author, { content: `post ${i}`, scheduledAt: ahead(600 + i) })
    if (res.statusCode !== 201) throw new Error(`${i}: ${res.statusCode} ${res.body}`)
  }
  expectError(
    t,
    await schedule(api, author, { content: 'one more', scheduledAt: ahead(6000) }),
    400,
    MSG.tooManyScheduledPosts,
  )
  t.equal((await postsOf(api, author)).length, 0, 'nothing published')
})
