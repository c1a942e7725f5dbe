import type { CommentRecord, PostRecord, StoreTx } from '../store/types.js'
import { dropUploads } from './media-deletion.js'
import { imageUrlsOf } from '../store/post-parts.js'
import { retract } from './notifier.js'
import { tellConversation } from './conversations.js'
import { audienceOf } from './audience-events.js'
import type { Audience } from './audience.js'

/**
 * Deletes a post inside a transaction, by its author or a moderator, and tells every open screen that
 * may read it; its image and its card's go once nothing else shows them, and the people of a direct
 * post's conversation hear how it stands for them without it.
 */
export async function deletePostIn(
  tx: StoreTx,
  post: Pick<
    PostRecord,
    '_id' | 'authorId' | 'createdAt' | 'visibility' | 'mediaUrl' | 'moreMedia' | 'card' | 'conversationId' | 'addressed'
  >,
  at: Date,
) {
  // Before the post goes: PostgreSQL would cascade its notifications away unseen, and recipients must hear their counts.
  await retract(tx, { postId: post._id })
  await tx.deletePost(post._id)
  await dropUploads(tx, [...imageUrlsOf(post), post.card?.image], at.toISOString())
  tx.emit({
    name: 'post.deleted',
    data: { postId: post._id, createdAt: post.createdAt },
    by: post.authorId,
    audience: audienceOf(post),
  })
  if (post.conversationId !== undefined)
    await tellConversation(tx, post.conversationId, [post.authorId, ...(post.addressed ?? [])], at)
}

/**
 * Deletes a comment inside a transaction, by its author, the post's author or a moderator, and the
 * replies to it with it, each told to open screens and its notifications taken back.
 */
/** Deletes the comment and every reply under it, at any depth, the deepest first. */
export async function deleteCommentIn(tx: StoreTx, post: Audience & { _id: string }, comment: CommentRecord) {
  for (const reply of await tx.listReplies(post._id, comment._id)) await deleteCommentIn(tx, post, reply)
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
