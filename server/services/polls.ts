import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import type { ClaimedJob, NewJob, NotificationRecord, PollRecord, PostRecord, Store, StoreTx } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { newJob, type JobRun } from './jobs.js'
import { addAndTell } from './notifier.js'
import { isClosed } from './poll-views.js'
import { checkCanInteract, checkNotSuspended } from './visibility.js'
import { checkMayRead } from './audience-reads.js'
import { audienceOf } from './audience-events.js'

/**
 * Tells the authors of these posts whose polls have closed and were not noticed yet. Whichever instance
 * reads such a post first does it; the store's notePollClosed lets exactly one transaction through.
 */
export async function noticeClosedPolls(store: Store, posts: readonly PostRecord[], at: Date) {
  for (const post of posts) {
    if (!post.poll || post.poll.closeNoticed || !isClosed(post.poll, at)) continue
    await store.transaction((tx) => noticeIn(tx, post, at.toISOString()))
  }
}

/** Tells the author their poll closed, unless someone has already. */
async function noticeIn(tx: StoreTx, post: PostRecord, when: string) {
  if (!(await tx.notePollClosed(post._id, when))) return
  const [author] = await tx.getUserSummaries([post.authorId])
  if (!author) return
  // The author's own poll: the one notification whose actor is its recipient.
  const record: NotificationRecord = {
    _id: randomUUID(),
    type: 'poll',
    recipientId: author._id,
    actorId: author._id,
    postId: post._id,
    createdAt: when,
    read: false,
  }
  await addAndTell(tx, record, author, { post })
}

/**
 * The job that tells the author when the poll closes, whether or not anyone reads it then. Its id is the
 * post's: a poll has one, and a database from before the queue gets the same (store/job-index.ts).
 */
export const pollCloseJob = (postId: string, poll: PollRecord): NewJob =>
  newJob('poll-close', { postId }, poll.closesAt, postId)

export function createPollsService({ store, now }: ServiceDeps) {
  return {
    /**
     * Runs a `poll-close` job: a poll nobody reads when it closes still reaches its author. Reads notice
     * first when they can; the notice and the job's end commit together, so the author is told once.
     */
    async runCloseJob(job: ClaimedJob, run: JobRun) {
      const post = await store.getPost(String(job.payload.postId))
      if (!post?.poll || post.poll.closeNoticed) return
      const at = now()
      // A clock behind the one that enqueued the job: the queue tries again in a moment.
      if (!isClosed(post.poll, at)) throw new Error(`the poll of ${post._id} has not closed yet`)
      await store.transaction(async (tx) => {
        await run.complete(tx)
        await noticeIn(tx, post, at.toISOString())
      })
    },

    /**
     * Counts the user's vote, once. Every open screen hears that the poll changed, without the counts,
     * which each reader may or may not see: a client reads the post again to draw it.
     */
    async vote(userId: string, postId: string, choice: number) {
      const at = now()
      const closed = await store.transaction(async (tx) => {
        const post = await tx.lockPost(postId)
        if (!post) throw notFound(MSG.postNotFound)
        if (!post.poll) throw notFound(MSG.pollNotFound)
        await checkNotSuspended(tx, post.authorId, at.toISOString(), MSG.postNotFound)
        await checkMayRead(tx, post, userId)
        await checkCanInteract(tx, userId, post.authorId, at.toISOString())
        if (isClosed(post.poll, at)) return true
        if (choice >= post.poll.options.length) throw badRequest(MSG.noSuchChoice)
        if (!(await tx.addPollVote({ postId: post._id, userId, choice }))) throw badRequest(MSG.alreadyVoted)
        tx.emit({ name: 'poll.voted', data: { postId: post._id }, by: post.authorId, audience: audienceOf(post) })
        return false
      })
      if (closed) {
        const post = await store.getPost(postId)
        if (post) await noticeClosedPolls(store, [post], at)
        throw badRequest(MSG.pollClosed)
      }
    },
  }
}

export type PollsService = ReturnType<typeof createPollsService>
