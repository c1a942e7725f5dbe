import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import { MAX_PINNED, type StoreReader } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { notify, retract } from './notifier.js'
import { postViews } from './post-views.js'
import { summaryOf, summaryRecordOf } from './views.js'
import { checkCanInteract, checkNotSuspended } from './visibility.js'
import { audienceOf } from './audience-events.js'
import { isShareable, visibilityOf } from './audience.js'
import { checkMayRead } from './audience-reads.js'
import type { Post } from '../schemas/posts.js'
import type { RemoteReactions } from './remote-reactions.js'

/**
 * A post as a live event carries it: without its quote, which one view cannot show rightly to every
 * stream (the quoted author may be hidden from some readers); a client reads the post to see it.
 */
export function withoutQuote(post: Post): Post {
  const { quote: _each, ...rest } = post
  return rest
}

/**
 * The quoted author's quote controls (DECISIONS §15), for all their posts, old and new: `nobody` lets
 * only the author quote themselves, `followers` also the people who follow them (an accepted follow).
 */
async function checkQuotePolicy(tx: StoreReader, userId: string, authorId: string) {
  if (userId === authorId) return
  const policy = (await tx.getAccount(authorId))?.quotePolicy ?? 'anyone'
  if (policy === 'anyone') return
  if (policy === 'followers' && (await tx.followedAmong(userId, [authorId])).has(authorId)) return
  throw forbidden(MSG.quoteNotAllowed)
}

/**
 * Reposts, pins and what a quote needs (DECISIONS §10): the posts service's writes of conversations,
 * each one transaction that checks and changes together, answering the post as `view` reads it.
 */
export function createPostActions(
  {
    store,
    now,
    federateReaction = async () => {},
  }: Pick<ServiceDeps, 'store' | 'now'> & { federateReaction?: RemoteReactions['federate'] },
  view: (postId: string, userId?: string) => Promise<{ post: Post }>,
) {
  /**
   * A repost (true) or its undoing, as a like is: the change itself says whether it was already so. A
   * repost tells every stream, with the post as a home feed shows it, and notifies the author.
   */
  async function repost(userId: string, postId: string, reposted: boolean) {
    await store.transaction(async (tx) => {
      const [post, me] = await Promise.all([tx.lockPost(postId), summaryRecordOf(tx, userId)])
      if (!post) throw notFound(MSG.postNotFound)
      const at = now().toISOString()
      await checkNotSuspended(tx, post.authorId, at, MSG.postNotFound)
      await checkCanInteract(tx, userId, post.authorId, at)
      if (!me) throw notFound(MSG.userNotRegistered)
      // Whoever may not read it is told it is not there, not that it may not be reposted.
      if (reposted) await checkMayRead(tx, post, userId)
      // Not even by its author: a repost shows the post to the reposter's followers, whoever they are.
      if (reposted && !isShareable(post)) throw badRequest(MSG.postNotRepostable)
      if (!(await tx.setRepost(post._id, userId, reposted, at)))
        throw badRequest(reposted ? MSG.alreadyReposted : MSG.notReposted)
      const repostCount = (post.repostCount ?? 0) + (reposted ? 1 : -1)
      const record = reposted ? await tx.getPost(post._id) : undefined
      const [shown] = record ? await postViews(tx, [record], { userId: undefined, compact: true }) : []
      const user = summaryOf(me)
      tx.emit({
        name: 'post.reposted',
        data: {
          postId: post._id,
          user,
          reposted,
          repostCount,
          at,
          ...(shown ? { post: { ...withoutQuote(shown), repostedBy: user, repostedAt: at } } : {}),
        },
        by: userId,
        about: post.authorId,
        audience: audienceOf(post),
      })
      await federateReaction(tx, 'announce', userId, post, reposted, at)
      if (reposted) await notify(tx, me, post.authorId, 'repost', { post }, at)
      else
        await retract(tx, {
          identity: { type: 'repost', recipientId: post.authorId, actorId: userId, postId: post._id },
        })
    })
    return view(postId, userId)
  }

  /** Pins (true) or unpins one of the author's own posts; pinning a pinned post keeps it where it was. */
  async function pin(userId: string, postId: string, pinned: boolean) {
    await store.transaction(async (tx) => {
      const post = await tx.lockPost(postId)
      if (!post) throw notFound(MSG.postNotFound)
      if (post.authorId !== userId) throw forbidden(MSG.notAllowed)
      // A profile is no place for a direct message; a followers post pinned shows only to who may read it.
      if (pinned && visibilityOf(post) === 'direct') throw badRequest(MSG.directNotPinnable)
      if (pinned && post.pinnedAt === undefined) {
        // Two pins at once by one author must not both pass the count.
        await tx.lockUser(userId)
        if ((await tx.listPinned(userId)).length >= MAX_PINNED) throw badRequest(MSG.tooManyPins)
      }
      await tx.setPinned(post._id, pinned ? (post.pinnedAt ?? now().toISOString()) : null)
      tx.emit({ name: 'post.pinned', data: { postId: post._id, pinned }, by: userId, audience: audienceOf(post) })
    })
    return view(postId, userId)
  }

  /**
   * The post a new post quotes, which its writer must be able to see and interact with; one that only some
   * may read only its own author may quote (DECISIONS §12).
   */
  async function quoted(tx: StoreReader, userId: string, quoteOf: string) {
    const post = await tx.getPost(quoteOf)
    if (!post) throw notFound(MSG.postNotFound)
    const at = now().toISOString()
    await checkNotSuspended(tx, post.authorId, at, MSG.postNotFound)
    await checkCanInteract(tx, userId, post.authorId, at)
    await checkMayRead(tx, post, userId)
    if (post.authorId !== userId && !isShareable(post)) throw badRequest(MSG.postNotQuotable)
    await checkQuotePolicy(tx, userId, post.authorId)
    return post
  }

  return { repost, pin, quoted }
}
