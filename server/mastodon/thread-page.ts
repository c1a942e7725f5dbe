import type { Comment, Post } from '../schemas/posts.js'
import type { Services } from '../services/index.js'
import { MAX_UNPAGED } from '../services/posts.js'
import { statusIdOf, type StatusKey } from '../services/status-ids.js'
import { recordNotFound } from './errors.js'
import { commentStatusOf, type CommentEntry } from './status-entity.js'
import { recordOr404, statusContextOf } from './status-page.js'
import type { Status } from './status-schemas.js'

/**
 * Chirp's comments as Mastodon's replies (DECISIONS §13): a post's comments answer it, a reply answers the
 * comment it replies to. A thread is read through the posts and comments services, so it shows what
 * Chirp's own comment reads show the reader and nothing more.
 */

/** A post and its comments, oldest first, as the reader may see them. */
export interface Thread {
  post: Post
  comments: Comment[]
}

export async function threadOf(services: Services, postId: string, readerId: string | undefined): Promise<Thread> {
  const { post } = await recordOr404(services.posts.get(postId, readerId))
  const { comments } = await recordOr404(services.comments.list(post._id, { limit: MAX_UNPAGED }, readerId))
  return { post, comments }
}

/** The comment a comment's status id names, when the reader may see it; a 404 for anything else. */
export function commentIn(thread: Thread, key: StatusKey): Comment {
  const comment = thread.comments.find((each) => each._id === key.commentId)
  // Only the id the comment's own status has names it: another time is no status of it.
  if (!comment || comment.createdAt !== key.at) throw recordNotFound()
  return comment
}

/** The comment a reply answers, when the reader may see it; a root comment answers the post. */
const parentIn = (thread: Thread, comment: Comment): Comment | undefined =>
  comment.replyTo === null ? undefined : thread.comments.find((each) => each._id === comment.replyTo)

/** The comments a comment answers, the root first and its own parent last: its ancestors below the post. */
export function ancestorsIn(thread: Thread, comment: Comment): Comment[] {
  const chain: Comment[] = []
  for (let parent = parentIn(thread, comment); parent && !chain.includes(parent); parent = parentIn(thread, parent)) {
    chain.unshift(parent)
  }
  return chain
}

/**
 * The replies under a comment (or, without one, every comment of the post) in thread order: each followed
 * by the replies under it, depth first, oldest first among siblings. A reply whose parent the reader cannot
 * see stands as answering the post, as its status says.
 */
export function subtreeIn(thread: Thread, top?: Comment): Comment[] {
  const children = new Map<string | null, Comment[]>()
  for (const comment of thread.comments) {
    const key = parentIn(thread, comment)?._id ?? null
    children.set(key, [...(children.get(key) ?? []), comment])
  }
  const ordered: Comment[] = []
  const walk = (id: string | null) => {
    for (const child of children.get(id) ?? []) {
      ordered.push(child)
      walk(child._id)
    }
  }
  walk(top?._id ?? null)
  return ordered
}

/** These comments of the thread as statuses, each answering its parent (or the post), with its replies counted. */
export async function commentStatusesOf(
  services: Services,
  publicUrl: string,
  thread: Thread,
  comments: readonly Comment[],
  readerId: string | undefined,
): Promise<Status[]> {
  const { post } = thread
  const parents = comments.map((comment) => parentIn(thread, comment))
  const keys = [
    post.username,
    ...comments.map((each) => each.username),
    ...parents.flatMap((each) => each?.username ?? []),
  ]
  const context = await statusContextOf(services, publicUrl, keys, readerId)
  const accountId = (username: string) => context.accounts.get(username)?.id ?? ''
  return comments.map((comment, i) => {
    const parent = parents[i]
    const entry: CommentEntry = {
      post,
      comment,
      inReplyTo: parent
        ? {
            id: statusIdOf({ at: parent.createdAt, postId: post._id, commentId: parent._id }),
            accountId: accountId(parent.username),
          }
        : { id: statusIdOf({ at: post.createdAt, postId: post._id }), accountId: accountId(post.username) },
      replies: thread.comments.filter((each) => each.replyTo === comment._id).length,
    }
    return commentStatusOf(entry, context)
  })
}

/** One comment's status. */
export async function commentStatus(
  services: Services,
  publicUrl: string,
  thread: Thread,
  comment: Comment,
  readerId: string | undefined,
): Promise<Status> {
  const [status] = await commentStatusesOf(services, publicUrl, thread, [comment], readerId)
  if (!status) throw new Error('a status of one comment')
  return status
}
