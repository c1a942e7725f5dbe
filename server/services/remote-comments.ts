import { randomUUID } from 'node:crypto'
import type { Visibility } from '../../common/audience.js'
import { LIMITS } from '../../common/limits.js'
import { AppError, MSG } from '../errors.js'
import type { CommentRecord, LockedPost, PostRecord, StoreTx } from '../store/types.js'
import { checkMayRead } from './audience-reads.js'
import { addCommentIn, editCommentIn, mustGetComment } from './comments.js'
import { checkCommentText } from './content-rules.js'
import type { ServiceDeps } from './deps.js'
import { suspendedAt } from './moderation-access.js'
import { cut, htmlToText } from './remote-people.js'
import { safeHtml } from './remote-posts.js'
import { deleteCommentIn } from './removals.js'
import { checkNotSuspended } from './visibility.js'

/**
 * Comments both ways with other servers (DECISIONS §14): a comment is a note answering (`inReplyTo`) the
 * post's note or the comment's it replies to. Out: a comment written, edited or deleted here queues one
 * delivery job, committed with the write, to those who see its post (§12). In: a note of a remote person
 * answering a post known here becomes their comment on it, written by the same rule as a local comment
 * (comments.ts), with its event and notifications; only its author changes or deletes it.
 */

/** What a comment's delivery job sends. */
export type CommentSend = 'comment-create' | 'comment-update' | 'comment-delete'

/** What a delivery job about a comment carries: enough to send its Delete once it is gone. */
export interface CommentDelivery {
  send: CommentSend
  postId: string
  commentId: string
  authorId: string
  visibility: Visibility
  /** The remote people it goes to besides followers: the post's author and those it addresses, whom it answers. */
  remoteIds: string
}

/** A comment received, as federation/ found its place: the post, and the comment it answers. */
export interface CommentTarget {
  postId: string
  replyTo?: string
}

/** Whether `error` is a rule's refusal (a 4xx), which a received activity meets by changing nothing. */
const refused = (error: unknown) => error instanceof AppError && error.statusCode < 500

export function createRemoteComments({ store, now, federating }: ServiceDeps & { federating: boolean }) {
  /** A remote person's write to a post's comments, under the rules a local one meets; a refusal changes nothing. */
  async function asRemote<T>(
    authorId: string,
    postId: string,
    change: (tx: StoreTx, post: LockedPost, at: string) => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await store.transaction(async (tx) => {
        const at = now().toISOString()
        const author = await tx.getAccount(authorId)
        if (!author?.remote || suspendedAt(author.suspension, at)) return undefined
        const post = await tx.lockPost(postId)
        if (!post) return undefined
        await checkNotSuspended(tx, post.authorId, at, MSG.postNotFound)
        await checkMayRead(tx, post, authorId)
        return change(tx, post, at)
      })
    } catch (error) {
      if (refused(error)) return undefined
      throw error
    }
  }

  /** A note's HTML as a comment's text, under the comment rules; undefined when they refuse it. */
  function textOf(html: string) {
    const text = cut(htmlToText(safeHtml(html)), LIMITS.comment)
    try {
      checkCommentText(text)
    } catch (error) {
      if (refused(error)) return undefined
      throw error
    }
    return text
  }

  /** Someone's own comment, or undefined. */
  async function ownComment(tx: StoreTx, post: LockedPost, commentId: string, authorId: string) {
    const comment = await mustGetComment(tx, post, commentId)
    return comment.authorId === authorId ? comment : undefined
  }

  return {
    /**
     * Queues the delivery of a comment written, edited or deleted here by a person of this server, in the
     * write's transaction. Nothing while federation is off, nor for a comment received from elsewhere.
     */
    async federate(
      tx: StoreTx,
      post: Pick<PostRecord, '_id' | 'authorId' | 'visibility' | 'addressed'>,
      comment: Pick<CommentRecord, '_id' | 'authorId' | 'replyTo'>,
      send: CommentSend,
      at: string,
    ) {
      if (!federating) return
      const writer = await tx.getAccount(comment.authorId)
      if (!writer || writer.remote) return
      const answered = comment.replyTo ? await tx.getComment(post._id, comment.replyTo) : undefined
      const people = await Promise.all(
        [...new Set([post.authorId, ...(post.addressed ?? []), ...(answered ? [answered.authorId] : [])])].map((id) =>
          tx.getAccount(id),
        ),
      )
      const remoteIds = people.flatMap((person) => (person?.remote ? [person._id] : []))
      const payload: CommentDelivery = {
        send,
        postId: post._id,
        commentId: comment._id,
        authorId: comment.authorId,
        visibility: post.visibility ?? 'public',
        remoteIds: remoteIds.join(','),
      }
      await tx.enqueueJob({ _id: randomUUID(), kind: 'delivery', payload: { ...payload }, runAt: at }, at)
    },

    /**
     * What a comment's delivery sends and to whom: the post and the comment as they now are (with the
     * comment it answers), and the remote people who see the post: those the job names, the post's
     * author's remote followers when the post is of this server, and the writer's when the post is public
     * or unlisted.
     */
    async outgoing(delivery: CommentDelivery) {
      const post = await store.getPost(delivery.postId)
      const comment = post ? await store.getComment(post._id, delivery.commentId) : undefined
      const [postAuthor, writer] = await Promise.all([
        post && !post.remote && delivery.visibility !== 'direct' ? store.getUser(post.authorId) : undefined,
        delivery.visibility === 'public' || delivery.visibility === 'unlisted'
          ? store.getUser(delivery.authorId)
          : undefined,
      ])
      const ids = [
        ...delivery.remoteIds.split(',').filter(Boolean),
        ...(postAuthor?.followers ?? []),
        ...(writer?.followers ?? []),
      ]
      const people = await Promise.all([...new Set(ids)].map((id) => store.getAccount(id)))
      const at = now().toISOString()
      const recipients = people.flatMap((person) =>
        person?.remote && !suspendedAt(person.suspension, at) ? [{ id: person._id, ...person.remote }] : [],
      )
      const answered = post && comment?.replyTo ? await store.getComment(post._id, comment.replyTo) : undefined
      const [answeredBy, postAuthorAccount] = await Promise.all([
        answered ? store.getAccount(answered.authorId) : undefined,
        post ? store.getAccount(post.authorId) : undefined,
      ])
      return {
        post,
        /** The post's author's actor, when they are of another server. */
        postAuthorActor: postAuthorAccount?.remote?.actorId,
        comment: comment?.authorId === delivery.authorId ? comment : undefined,
        answered: answered ? { _id: answered._id, remote: Boolean(answeredBy?.remote) } : undefined,
        recipients,
      }
    },

    /**
     * A comment of this server's person on a post served to other servers (public or unlisted), as its
     * note is served; undefined otherwise.
     */
    async served(postId: string, commentId: string) {
      const post = await store.getPost(postId)
      if (!post || (post.visibility !== undefined && post.visibility !== 'public' && post.visibility !== 'unlisted'))
        return undefined
      const comment = await store.getComment(postId, commentId)
      const writer = comment ? await store.getUser(comment.authorId) : undefined
      if (!comment || !writer || writer.remote) return undefined
      return this.outgoing({
        send: 'comment-create',
        postId,
        commentId,
        authorId: comment.authorId,
        visibility: post.visibility ?? 'public',
        remoteIds: '',
      })
    },

    /** The id of the post a remote note is, when it is kept here. */
    async postOfNote(noteId: string) {
      return (await store.getPostByNote(noteId))?._id
    },

    /**
     * A remote person's note answering a post known here: their comment `commentId` on it (or reply to one
     * of its comments), with the same rules, event and notifications as a local one; kept once.
     */
    async received(authorId: string, target: CommentTarget, html: string, commentId: string) {
      const text = textOf(html)
      if (text === undefined) return
      await asRemote(authorId, target.postId, async (tx, post, at) => {
        if (await tx.getComment(post._id, commentId)) return
        await addCommentIn(tx, post, authorId, text, target.replyTo, at, commentId)
      })
    },

    /** A remote person's edit of their comment: applied only to a comment of theirs. */
    async updated(authorId: string, postId: string, commentId: string, html: string) {
      const text = textOf(html)
      if (text === undefined) return
      await asRemote(authorId, postId, async (tx, post, at) => {
        const comment = await ownComment(tx, post, commentId, authorId)
        if (comment && comment.text !== text) await editCommentIn(tx, post, comment, text, at)
      })
    },

    /** A remote person's deletion of their comment: it goes, with its replies, only when it is theirs. */
    async deleted(authorId: string, postId: string, commentId: string) {
      await asRemote(authorId, postId, async (tx, post) => {
        const comment = await ownComment(tx, post, commentId, authorId)
        if (comment) await deleteCommentIn(tx, post, comment)
      })
    },
  }
}

export type RemoteComments = ReturnType<typeof createRemoteComments>
