import { randomUUID } from 'node:crypto'
import t from 'tap'
import { newJob } from '../../server/services/jobs.js'
import { createPollsService, pollCloseJob } from '../../server/services/polls.js'
import { countOf, startQueue, untilJobs } from '../helpers/jobs.js'
import type { PostRecord } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/** The poll and reply operations, on both stores alike: votes once each, closing noticed once, votes taken back. */
const skip = await skipWithoutPostgres()

await t.test('poll votes, their removal and the close mark behave alike on both stores', { skip }, async (t) => {
  const database = uuidDatabase({ users: 4, posts: 2 })
  const [author, a, b] = database.users.map((user) => user._id) as [string, string, string]
  const at = '2026-06-01T00:00:00.000Z'
  const post: PostRecord = {
    _id: randomUUID(),
    authorId: author,
    content: 'which?',
    mediaUrl: '',
    type: '',
    createdAt: at,
    updatedAt: at,
    likedBy: [],
    dislikedBy: [],
    comments: [],
    likeCount: 0,
    commentCount: 0,
    poll: { options: ['x', 'y'], closesAt: '2026-06-02T00:00:00.000Z', counts: [0, 0] },
  }
  for (const { name, store } of await openBothStores(t, database)) {
    await t.test(name, async (t) => {
      const tx = <T>(work: Parameters<typeof store.transaction<T>>[0]) => store.transaction(work)
      await tx((w) => w.insertPost(post))
      t.equal(await tx((w) => w.addPollVote({ postId: post._id, userId: a, choice: 1 })), true, 'a vote')
      t.equal(await tx((w) => w.addPollVote({ postId: post._id, userId: a, choice: 0 })), false, 'not twice')
      t.equal(await tx((w) => w.addPollVote({ postId: post._id, userId: b, choice: 2 })), false, 'no such option')
      t.equal(await tx((w) => w.addPollVote({ postId: post._id, userId: b, choice: 0 })), true, 'another voter')
      t.strictSame((await store.getPost(post._id))?.poll?.counts, [1, 1])
      t.strictSame(
        (await store.pollVotesOf([post._id], [a, author])).map((v) => [v.userId, v.choice]),
        [[a, 1]],
        'the votes of whom is asked',
      )
      t.equal(await tx((w) => w.notePollClosed(post._id, '2026-06-01T12:00:00.000Z')), false, 'still open')
      t.equal(await tx((w) => w.notePollClosed(post._id, '2026-06-02T00:00:00.000Z')), true, 'noticed once')
      t.equal(await tx((w) => w.notePollClosed(post._id, '2026-06-03T00:00:00.000Z')), false, 'never again')
      t.strictSame(await tx((w) => w.removePollVotes(a)), [post._id], 'an account going takes its votes back')
      t.strictSame((await store.getPost(post._id))?.poll?.counts, [1, 0])
      t.strictSame(await store.pollVotesOf([post._id], [a]), [])
      t.strictSame(await tx((w) => w.removePollVotes(a)), [], 'nothing left')
    })
  }
})

await t.test('replies are listed by the comment they answer on both stores', { skip }, async (t) => {
  const database = uuidDatabase({ users: 3, posts: 1 })
  const [author] = database.users.map((user) => user._id) as [string]
  const postId = (database.posts[0] as PostRecord)._id
  const comment = (text: string, replyTo?: string) => ({
    _id: randomUUID(),
    authorId: author,
    text,
    upvotedBy: [],
    downvotedBy: [],
    createdAt: '2026-06-01T00:00:00.000Z',
    updatedAt: '2026-06-01T00:00:00.000Z',
    ...(replyTo ? { replyTo } : {}),
  })
  const root = comment('root')
  const replies = [comment('one', root._id), comment('two', root._id)]
  for (const { name, store } of await openBothStores(t, database)) {
    await t.test(name, async (t) => {
      await store.transaction(async (tx) => {
        for (const c of [root, ...replies, comment('other')]) await tx.addComment(postId, c)
      })
      t.strictSame(
        (await store.listReplies(postId, root._id)).map((c) => [c.text, c.replyTo]),
        [
          ['one', root._id],
          ['two', root._id],
        ],
      )
      t.strictSame(await store.listReplies(postId, replies[0]?._id ?? ''), [], 'a reply has none')
      t.equal((await store.getComment(postId, root._id))?.replyTo, undefined, 'a root has no replyTo')
    })
  }
})

await t.test(
  'poll-close jobs tell the authors of polls that closed unread, once, on both stores',
  { skip },
  async (t) => {
    const database = uuidDatabase({ users: 2, posts: 1 })
    const [author] = database.users.map((user) => user._id) as [string]
    const poll = (closesAt: string): PostRecord => ({
      _id: randomUUID(),
      authorId: author,
      content: `closes ${closesAt}`,
      mediaUrl: '',
      type: '',
      createdAt: '2026-05-01T00:00:00.000Z',
      updatedAt: '2026-05-01T00:00:00.000Z',
      likedBy: [],
      dislikedBy: [],
      comments: [],
      likeCount: 0,
      commentCount: 0,
      poll: { options: ['x', 'y'], closesAt, counts: [0, 0] },
    })
    const [early, late] = [poll('2026-06-01T00:00:00.000Z'), poll('2026-06-09T00:00:00.000Z')]
    for (const { name, store } of await openBothStores(t, database)) {
      await t.test(name, async (t) => {
        const at = '2026-06-02T00:00:00.000Z'
        await store.transaction(async (tx) => {
          for (const post of [early, late]) {
            await tx.insertPost(post)
            if (post.poll) await tx.enqueueJob(pollCloseJob(post._id, post.poll), at)
            // A second job of the same poll, as a retry racing a read would be: it must tell nobody again.
            if (post.poll) await tx.enqueueJob(newJob('poll-close', { postId: post._id }, post.poll.closesAt), at)
          }
        })
        const polls = createPollsService({ store, now: () => new Date(at) })
        startQueue(t, store, { 'poll-close': (job, run) => polls.runCloseJob(job, run) }, { now: () => new Date(at) })
        await untilJobs(store, (counts) => countOf(counts, 'poll-close', 'done') === 2)
        t.strictSame(
          (await store.countJobs()).map((count) => [count.state, count.count]),
          [
            ['queued', 2],
            ['done', 2],
          ],
          "the early poll's jobs done, the late one's waiting for its close",
        )
        const told = (await store.listNotifications(author, {})).items
        t.strictSame(
          told.map((n) => [n.type, n.postId]),
          [['poll', early._id]],
          'its author told once',
        )
        t.equal((await store.getPost(early._id))?.poll?.closeNoticed, true, 'the early poll is noticed closed')
        t.equal((await store.getPost(late._id))?.poll?.closeNoticed, undefined, 'the late one is not yet')
      })
    }
  },
)
