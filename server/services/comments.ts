import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import type { EventName } from '../schemas/events.js'
import { hasVisibleText } from '../schemas/text.js'
import type { PageRequest, CommentRecord, PostRecord } from '../store/types.js'
import { pageByOffset } from '../store/cursor.js'
import type { ServiceDeps } from './deps.js'
import { mustGetPost } from './posts.js'
import { toComment, toPost, usersOfPosts } from './views.js'

function mustGetComment(post: PostRecord, commentId: string): CommentRecord {
  const comment = post.comments.find((candidate) => candidate._id === commentId)
  if (!comment) throw notFound(MSG.commentNotFound)
  return comment
}

function checkText(text: string) {
  if (!hasVisibleText(text)) throw badRequest(MSG.emptyComment)
}

const replaceComment = (post: PostRecord, next: CommentRecord): PostRecord => ({
  ...post,
  comments: post.comments.map((comment) => (comment._id === next._id ? next : comment)),
})

type CommentEvent = Extract<EventName, 'comment.added' | 'comment.updated' | 'comment.voted'>

export function createCommentsService({ store, events, now }: ServiceDeps) {
  /** One write to one post's comments; publishes the event and answers with the changed post. */
  async function write(
    postId: string,
    change: (post: PostRecord, at: string) => { post: PostRecord; commentId: string },
    event: CommentEvent | 'comment.deleted',
  ) {
    const { post, commentId } = await store.transaction(async (tx) => {
      const result = change(await mustGetPost(tx, postId), now().toISOString())
      await tx.putPost(result.post)
      return result
    })
    const users = await usersOfPosts(store, [post])
    const view = toPost(post, users)
    if (event === 'comment.deleted') {
      events.publish({ name: event, data: { postId: post._id, commentId, post: view } })
    } else {
      const comment = toComment(mustGetComment(post, commentId), users)
      events.publish({ name: event, data: { postId: post._id, comment, post: view } })
    }
    return { post: view }
  }

  function vote(userId: string, postId: string, commentId: string, up: boolean) {
    return write(
      postId,
      (post, at) => {
        const comment = mustGetComment(post, commentId)
        const already = up ? comment.upvotedBy : comment.downvotedBy
        if (already.includes(userId)) throw badRequest(up ? MSG.alreadyUpvoted : MSG.alreadyDownvoted)
        const others = (ids: readonly string[]) => ids.filter((id) => id !== userId)
        const next: CommentRecord = {
          ...comment,
          upvotedBy: up ? [...comment.upvotedBy, userId] : others(comment.upvotedBy),
          downvotedBy: up ? others(comment.downvotedBy) : [...comment.downvotedBy, userId],
          updatedAt: at,
        }
        return { post: replaceComment(post, next), commentId }
      },
      'comment.voted',
    ).then(({ post }) => ({ comments: post.comments }))
  }

  return {
    async list(postId: string, page: PageRequest) {
      const post = await mustGetPost(store, postId)
      const users = await usersOfPosts(store, [post])
      const { items, nextCursor } = pageByOffset(post.comments, page)
      const comments = items.map((comment) => toComment(comment, users))
      return page.limit === undefined && page.cursor === undefined ? { comments } : { comments, nextCursor }
    },

    add(userId: string, postId: string, text: string) {
      checkText(text)
      return write(
        postId,
        (post, at) => {
          const comment: CommentRecord = {
            _id: randomUUID(),
            authorId: userId,
            text,
            upvotedBy: [],
            downvotedBy: [],
            createdAt: at,
            updatedAt: at,
          }
          return { post: { ...post, comments: [...post.comments, comment] }, commentId: comment._id }
        },
        'comment.added',
      )
    },

    edit(userId: string, postId: string, commentId: string, text: string) {
      checkText(text)
      return write(
        postId,
        (post, at) => {
          const comment = mustGetComment(post, commentId)
          if (comment.authorId !== userId) throw badRequest(MSG.editCommentNotOwner)
          return { post: replaceComment(post, { ...comment, text, updatedAt: at }), commentId }
        },
        'comment.updated',
      )
    },

    /** The comment's author or the post's author may delete it. */
    remove(userId: string, postId: string, commentId: string) {
      return write(
        postId,
        (post) => {
          const comment = mustGetComment(post, commentId)
          if (comment.authorId !== userId && post.authorId !== userId) throw badRequest(MSG.deleteCommentNotOwner)
          return { post: { ...post, comments: post.comments.filter((other) => other._id !== commentId) }, commentId }
        },
        'comment.deleted',
      )
    },

    upvote: (userId: string, postId: string, commentId: string) => vote(userId, postId, commentId, true),
    downvote: (userId: string, postId: string, commentId: string) => vote(userId, postId, commentId, false),
  }
}

export type CommentsService = ReturnType<typeof createCommentsService>
