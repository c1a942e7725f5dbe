import { randomUUID } from 'node:crypto'
import { AppError } from '../errors.js'
import type { PostRecord, StoreTx } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { suspendedAt } from './moderation-access.js'
import type { PostsService } from './posts.js'

/**
 * Likes and reposts both ways with other servers (DECISIONS §14). Out: a like of a remote post is a `Like`
 * to its author; a repost is an `Announce` to the post's author (when remote) and the reposter's remote
 * followers; undoing either sends its `Undo`. Each is one delivery job committed with the write. In: a
 * remote person's `Like` or `Announce` of a post here is their like or repost, through the posts service
 * (its rules, counts, events and notifications), and their `Undo` takes back only their own.
 */

/** What a reaction's delivery job sends. */
export type ReactionSend = 'like' | 'undo-like' | 'announce' | 'undo-announce'

/** What a delivery job about a like or a repost carries. */
export interface ReactionDelivery {
  send: ReactionSend
  userId: string
  postId: string
}

/** Whether `error` is a rule's refusal (a 4xx), which a received activity meets by changing nothing. */
const refused = (error: unknown) => error instanceof AppError && error.statusCode < 500

export function createRemoteReactions({
  store,
  now,
  federating,
  posts,
}: ServiceDeps & {
  federating: boolean
  posts: () => Pick<PostsService, 'like' | 'dislike' | 'repost' | 'unrepost'>
}) {
  /** A remote person's change, through the posts service; a refusal (already so, not allowed) changes nothing. */
  async function asRemote(remoteId: string, change: () => Promise<unknown>) {
    const person = await store.getAccount(remoteId)
    if (!person?.remote) return
    try {
      await change()
    } catch (error) {
      if (!refused(error)) throw error
    }
  }

  return {
    /**
     * Queues, in the write's transaction, the delivery of a like (of a remote post) or a repost by a person
     * of this server, or of its undoing. Nothing while federation is off.
     */
    async federate(
      tx: StoreTx,
      kind: 'like' | 'announce',
      userId: string,
      post: Pick<PostRecord, '_id' | 'remote'>,
      on: boolean,
      at: string,
    ) {
      if (!federating || (kind === 'like' && !post.remote)) return
      const me = await tx.getAccount(userId)
      if (!me || me.remote) return
      const payload: ReactionDelivery = { send: on ? kind : `undo-${kind}`, userId, postId: post._id }
      await tx.enqueueJob({ _id: randomUUID(), kind: 'delivery', payload: { ...payload }, runAt: at }, at)
    },

    /** The post a delivery names, its author's actor when remote, and the remote people it goes to. */
    async outgoing(delivery: ReactionDelivery) {
      const post = await store.getPost(delivery.postId)
      if (!post) return undefined
      const author = await store.getAccount(post.authorId)
      const announce = delivery.send === 'announce' || delivery.send === 'undo-announce'
      const reposter = announce ? await store.getUser(delivery.userId) : undefined
      const ids = [...(author?.remote ? [author._id] : []), ...(reposter?.followers ?? [])]
      const people = await Promise.all([...new Set(ids)].map((id) => store.getAccount(id)))
      const at = now().toISOString()
      const recipients = people.flatMap((person) =>
        person?.remote && !suspendedAt(person.suspension, at) ? [{ id: person._id, ...person.remote }] : [],
      )
      return { post, authorActor: author?.remote?.actorId, recipients }
    },

    /** A remote person's `Like` (true) of a post here, or its `Undo`. */
    liked: (remoteId: string, postId: string, on: boolean) =>
      asRemote(remoteId, () => (on ? posts().like(remoteId, postId) : posts().dislike(remoteId, postId))),

    /** A remote person's `Announce` (true) of a post here, or its `Undo`. */
    reposted: (remoteId: string, postId: string, on: boolean) =>
      asRemote(remoteId, () => (on ? posts().repost(remoteId, postId) : posts().unrepost(remoteId, postId))),
  }
}

export type RemoteReactions = ReturnType<typeof createRemoteReactions>
