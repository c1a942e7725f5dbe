import type { CommentRecord, PostRecord, StoreTx } from '../store/types.js'
import { retract } from './notifier.js'
import { audienceOf } from './audience-events.js'
import type { Audience } from './audience.js'

/** Deletes a post inside a transaction, by its author or a moderator, and tells every open screen. */
export async function deletePostIn(
  tx: StoreTx,
  post: Pick<PostRecord, '_id' | 'authorId' | 'visibility' | 'addressed'>,
) {
  // Before the post goes: PostgreSQL would cascade its notifications away unseen, and recipients must hear their counts.
  await retract(tx, { postId: post._id })
  await tx.deletePost(post._id)
  tx.emit({ name: 'post.deleted', data: { postId: post._id }, by: post.authorId, audience: audienceOf(post) })
}

/**
 * Deletes a comment inside a transaction, by its author, the post's author or a moderator, and the
 * replies to it with it, each told to open screens and its notifications taken back.
 */
export async function deleteCommentIn(tx: StoreTx, post: Audience & { _id: string }, comment: CommentRecord) {
  for (const reply of await tx.listReplies(post._id, comment._id)) await deleteOne(tx, post, reply)
  await deleteOne(tx, post, comment)
}

async function deleteOne(tx: StoreTx, post: Audience & { _id: string }, comment: CommentRecord) {
  await retract(tx, { commentId: comment._id })
  await tx.deleteComment(post._id, comment._id)
  tx.emit({
    name: 'comment.deleted',
    data: { postId: post._id, commentId: comment._id },
    by: comment.authorId,
    audience: audienceOf(post),
  })
}
