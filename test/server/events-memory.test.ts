import { runInNewContext } from 'node:vm'
import v8 from 'node:v8'
import t from 'tap'
import type { Post } from '../../server/schemas/posts.js'
import { buildApiApp, signup } from '../helpers/api.js'

/**
 * One busy post must not grow the server's memory with the square of its comments: each comment's
 * event carries the comment, not the post with every comment so far, and the replay buffer is bounded
 * in bytes. A thousand comments of 500 CJK characters on one post once took the process from 144 MB
 * to 1.87 GB, for about 1.5 MB of text.
 */
const COMMENTS = 300
/**
 * Events that carried the whole post would keep about COMMENTS² / 2 × 1.5 KB (some 67 MB) in the replay
 * buffer; deltas keep about COMMENTS × 1.5 KB. The bound sits far from both.
 */
const GENEROUS_BOUND = 32 * 1024 * 1024

v8.setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
/** The heap that is still reachable: what the server holds, not garbage it has yet to collect. */
function retained(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

await t.test(`${COMMENTS} long comments on one post leave memory bounded`, async (t) => {
  const api = await buildApiApp(t)
  const author = await signup(api)
  const others = [await signup(api), await signup(api), await signup(api)]
  const headers = { prefer: 'return=minimal' }
  const created = await api.as(author.token, {
    method: 'POST',
    url: '/api/posts',
    headers,
    payload: { content: 'a busy post' },
  })
  const post = (created.json() as { post: Post }).post
  const text = '東京の夜景'.repeat(100)
  const before = retained()
  for (let i = 0; i < COMMENTS; i++) {
    const who = others[i % others.length] as (typeof others)[number]
    const res = await api.as(who.token, {
      method: 'POST',
      url: `/api/comments/add/${post._id}`,
      headers,
      payload: { text },
    })
    if (res.statusCode !== 201) throw new Error(`comment ${i}: ${res.statusCode} ${res.body}`)
  }
  const grown = retained() - before
  t.ok(
    grown < GENEROUS_BOUND,
    `the heap kept ${Math.round(grown / 1048576)} MB more, under ${GENEROUS_BOUND / 1048576} MB`,
  )
  const comments = await api.app.inject({ method: 'GET', url: `/api/comments/${post._id}?limit=1` })
  t.equal(comments.statusCode, 200, 'and the post still answers')
})
