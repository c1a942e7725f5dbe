import t from 'tap'
import { newJob } from '../../server/services/jobs.js'
import { createPostsService } from '../../server/services/posts.js'
import { createScheduledPostsService } from '../../server/services/scheduled-posts.js'
import { countOf, openTestStore, settled, startQueue, untilJobs } from '../helpers/jobs.js'

/**
 * A scheduled post is published once however many workers reach it (DECISIONS §15, §16): two job queues
 * over one store, as two instances have, each running `scheduled-post` jobs, with a second job for the same
 * post (as a move leaves behind). On PostgreSQL when CHIRP_TEST_DATABASE_URL is set.
 */

await t.test('two workers and two jobs for one scheduled post publish it once', async (t) => {
  const store = await openTestStore(t)
  const now = () => new Date()
  const posts = createPostsService({ store, now })
  const scheduled = createScheduledPostsService({ store, now, posts, minSeconds: 0 })
  const [author] = (await store.listUsers({ limit: 2 })).items
  if (!author) throw new Error('no user')
  const before = (await store.listPosts({ sort: 'latest', limit: 100, authorIds: [author._id] })).items.length
  const at = new Date(Date.now() + 400).toISOString()
  const { scheduledPost } = await scheduled.schedule(author._id, { content: 'once only', scheduledAt: at })
  // A second job for the same post, due at the same moment, as a move to the same time would leave.
  await store.enqueueJobs(
    [newJob('scheduled-post', { userId: author._id, scheduledId: scheduledPost._id }, at)],
    new Date().toISOString(),
  )
  const handlers = { 'scheduled-post': scheduled.runJob.bind(scheduled) }
  startQueue(t, store, handlers)
  startQueue(t, store, handlers)
  const counts = await untilJobs(store, (counts) => settled(counts) && countOf(counts, 'scheduled-post', 'done') === 2)
  t.equal(countOf(counts, 'scheduled-post', 'failed'), 0, 'no job failed')
  const after = (await store.listPosts({ sort: 'latest', limit: 100, authorIds: [author._id] })).items
  t.equal(after.length - before, 1, 'one post published')
  t.equal(after[0]?.content, 'once only')
  t.strictSame(await store.listScheduledPosts(author._id), [], 'no longer scheduled')
})

await t.test('a post that can no longer be published stays scheduled, and its job fails saying why', async (t) => {
  const store = await openTestStore(t)
  const now = () => new Date()
  const posts = createPostsService({ store, now })
  const scheduled = createScheduledPostsService({ store, now, posts, minSeconds: 0 })
  const [author] = (await store.listUsers({ limit: 2 })).items
  if (!author) throw new Error('no user')
  const at = new Date(Date.now() + 200).toISOString()
  const { scheduledPost } = await scheduled.schedule(author._id, {
    content: 'quoting nothing',
    quoteOf: '00000000-0000-4000-8000-000000000000',
    scheduledAt: at,
  })
  startQueue(t, store, { 'scheduled-post': scheduled.runJob.bind(scheduled) })
  await untilJobs(store, (counts) => countOf(counts, 'scheduled-post', 'failed') === 1)
  const failed = await store.listFailedJobs(5)
  t.match(failed[0], { kind: 'scheduled-post', lastError: /not found/i })
  t.strictSame(
    (await store.listScheduledPosts(author._id)).map((each) => each._id),
    [scheduledPost._id],
    'still there, to move or cancel',
  )
})
