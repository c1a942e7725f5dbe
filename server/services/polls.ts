import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import type { NotificationRecord, PostRecord, Store } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { addAndTell } from './notifier.js'
import { isClosed } from './poll-views.js'
import { checkCanInteract, checkNotSuspended } from './visibility.js'

/**
 * Tells the authors of these posts whose polls have closed and were not noticed yet. Whichever instance
 * reads such a post first does it; the store's notePollClosed lets exactly one transaction through.
 */
export async function noticeClosedPolls(store: Store, posts: readonly PostRecord[], at: Date) {
  const when = at.toISOString()
  for (const post of posts) {
    if (!post.poll || post.poll.closeNoticed || !isClosed(post.poll, at)) continue
    await store.transaction(async (tx) => {
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
    })
  }
}

/** How many closed polls one sweep tells their authors of; the next sweep takes the rest. */
const SWEEP_BATCH = 100

export function createPollsService({ store, now }: ServiceDeps) {
  return {
    /**
     * Tells the authors of polls that closed while nobody read them: what a running instance does now
     * and then, so that a poll nobody looks at still reaches its author. Reads do it too, first.
     */
    async sweep() {
      const at = now()
      const ids = await store.closedPollsUnnoticed(at.toISOString(), SWEEP_BATCH)
      if (ids.length > 0) await noticeClosedPolls(store, await store.getPosts(ids), at)
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
        await checkCanInteract(tx, userId, post.authorId, at.toISOString())
        if (isClosed(post.poll, at)) return true
        if (choice >= post.poll.options.length) throw badRequest(MSG.noSuchChoice)
        if (!(await tx.addPollVote({ postId: post._id, userId, choice }))) throw badRequest(MSG.alreadyVoted)
        tx.emit({ name: 'poll.voted', data: { postId: post._id }, by: post.authorId })
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
