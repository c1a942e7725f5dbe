import { commentWithEmojis, emojiLookup } from './custom-emojis.js'
import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import { checkCommentText } from './content-rules.js'
import type { CommentRecord, LockedPost, PageRequest, StoreTx } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { notify, syncMentions } from './notifier.js'
import { deleteCommentIn } from './removals.js'
import { audienceOf } from './audience-events.js'
import { postViews } from './post-views.js'
import { lookup, summaryOf, summaryRecordOf, toComment } from './views.js'
import { checkCanInteract, checkNotSuspended, hiddenFrom, seeing } from './visibility.js'
import { checkMayRead } from './audience-reads.js'
import type { Comment } from '../schemas/posts.js'
import type { RemoteComments } from './remote-comments.js'

export async function mustGetComment(tx: StoreTx, post: LockedPost, commentId: string): Promise<CommentRecord> {
  const comment = await tx.getComment(post._id, commentId)
  if (!comment) throw notFound(MSG.commentNotFound)
  return comment
}

async function lockPost(tx: StoreTx, postId: string): Promise<LockedPost> {
  const post = await tx.lockPost(postId)
  if (!post) throw notFound(MSG.postNotFound)
  return post
}

/**
 * A comment by `userId` on `post` (or with `replyTo` a reply to one of its comments), written in `tx` with
 * its event and notifications: the one rule for a comment, whether written here or received from another
 * server (remote-comments.ts). Refused across a block, and on a comment of someone suspended.
 */
export async function addCommentIn(
  tx: StoreTx,
  post: LockedPost,
  userId: string,
  text: string,
  replyTo: string | null | undefined,
  at: string,
  id: string = randomUUID(),
): Promise<Comment> {
  await checkCanInteract(tx, userId, post.authorId, at)
  const answered = replyTo ? await mustGetComment(tx, post, replyTo) : undefined
  if (answered) await checkNotSuspended(tx, answered.authorId, at, MSG.commentNotFound)
  if (answered) await checkCanInteract(tx, userId, answered.authorId, at)
  const comment: CommentRecord = {
    _id: id,
    authorId: userId,
    text,
    upvotedBy: [],
    downvotedBy: [],
    createdAt: at,
    updatedAt: at,
    ...(answered ? { replyTo: answered._id } : {}),
  }
  await tx.addComment(post._id, comment)
  const author = await tx.getUserSummaries([userId])
  const view = commentWithEmojis(
    toComment(comment, new Map(author.map((user) => [user._id, user]))),
    await emojiLookup(tx),
  )
  tx.emit({
    name: 'comment.added',
    data: { postId: post._id, comment: view },
    by: userId,
    audience: audienceOf(post),
  })
  const [me] = author
  if (!me) return view
  // Whose comment is answered hears of the reply; the post's author of the comment, unless that is the same news.
  if (answered) await notify(tx, me, answered.authorId, 'reply', { post, comment }, at)
  if (answered?.authorId !== post.authorId) await notify(tx, me, post.authorId, 'comment', { post, comment }, at)
  // Those told already hear nothing more of a mention of them in it.
  const told = new Set([post.authorId, ...(answered ? [answered.authorId] : [])])
  await syncMentions(tx, me, { before: '', after: text }, { post, comment }, at, told)
  return view
}

/** A comment's new text, written in `tx` with its event and the mentions it adds; the caller checked it is theirs. */
export async function editCommentIn(tx: StoreTx, post: LockedPost, comment: CommentRecord, text: string, at: string) {
  await tx.updateComment(post._id, comment._id, text, at)
  tx.emit({
    name: 'comment.updated',
    data: { postId: post._id, commentId: comment._id, text, updatedAt: at },
    by: comment.authorId,
    audience: audienceOf(post),
  })
  const me = await summaryRecordOf(tx, comment.authorId)
  const subject = { post, comment: { _id: comment._id, text } }
  if (me) await syncMentions(tx, me, { before: comment.text, after: text }, subject, at, new Set([post.authorId]))
}

export function createCommentsService({
  store,
  now,
  federateComment = async () => {},
}: ServiceDeps & { federateComment?: RemoteComments['federate'] }) {
  /**
   * One write to one post's comments inside a transaction, none on a suspended author's post nor on one the
   * writer may not read (a comment is seen by exactly those who see its post); answers with the post as it
   * now is to the writer, without what is hidden from them.
   */
  async function write(
    userId: string,
    postId: string,
    change: (tx: StoreTx, post: LockedPost, at: string) => Promise<void>,
  ) {
    await store.transaction(async (tx) => {
      const [post, at] = [await lockPost(tx, postId), now().toISOString()]
      await checkNotSuspended(tx, post.authorId, at, MSG.postNotFound)
      await checkMayRead(tx, post, userId)
      await change(tx, post, at)
    })
    const post = await store.getPost(postId)
    if (!post) throw notFound(MSG.postNotFound)
    const [view] = await postViews(store, [post], await seeing(store, { userId, compact: false }, now()))
    if (!view) throw notFound(MSG.postNotFound)
    return { post: view }
  }

  function vote(userId: string, postId: string, commentId: string, up: boolean) {
    return write(userId, postId, async (tx, post, at) => {
      const comment = await mustGetComment(tx, post, commentId)
      await checkNotSuspended(tx, comment.authorId, at, MSG.commentNotFound)
      await checkCanInteract(tx, userId, post.authorId, at)
      await checkCanInteract(tx, userId, comment.authorId, at)
      const me = await summaryRecordOf(tx, userId)
      if (!me) throw notFound(MSG.userNotRegistered)
      if (!(await tx.setVote(post._id, commentId, userId, up, at))) {
        throw badRequest(up ? MSG.alreadyUpvoted : MSG.alreadyDownvoted)
      }
      tx.emit({
        name: 'comment.voted',
        data: { postId: post._id, commentId, user: summaryOf(me), up, updatedAt: at },
        by: userId,
        audience: audienceOf(post),
      })
    })
  }

  return {
    /**
     * The post's comments, without those of people hidden from the reader; none to someone the post's author
     * blocks, or who may not read the post.
     */
    async list(postId: string, page: PageRequest, viewerId: string | undefined) {
      const post = await store.getPost(postId)
      const hidden = await hiddenFrom(store, viewerId, now())
      if (!post || hidden.shut.has(post.authorId)) throw notFound(MSG.postNotFound)
      await checkMayRead(store, post, viewerId)
      const { items, nextCursor } = await store.listComments(post._id, { ...page, hide: hidden.people })
      const users = await lookup(
        store,
        items.flatMap((c) => [c.authorId, ...c.upvotedBy, ...c.downvotedBy]),
      )
      const known = await emojiLookup(store)
      const comments = items.map((comment) => commentWithEmojis(toComment(comment, users), known))
      return page.limit === undefined && page.cursor === undefined ? { comments } : { comments, nextCursor }
    },

    /**
     * A comment, or with `replyTo` a reply to one of the post's comments, at any depth: a reply keeps the
     * comment it answers, so threads are trees. An id that is not a comment of this post is a 404. Answers
     * the post as it now is and the comment written.
     */
    async add(userId: string, postId: string, text: string, replyTo?: string | null) {
      checkCommentText(text)
      const added: { comment?: Comment } = {}
      const written = await write(userId, postId, async (tx, post, at) => {
        added.comment = await addCommentIn(tx, post, userId, text, replyTo, at)
        const record = { _id: added.comment._id, authorId: userId, ...(replyTo ? { replyTo } : {}) }
        await federateComment(tx, post, record, 'comment-create', at)
      })
      if (!added.comment) throw notFound(MSG.commentNotFound)
      return { ...written, comment: added.comment }
    },

    edit(userId: string, postId: string, commentId: string, text: string) {
      checkCommentText(text)
      return write(userId, postId, async (tx, post, at) => {
        const comment = await mustGetComment(tx, post, commentId)
        if (comment.authorId !== userId) throw badRequest(MSG.editCommentNotOwner)
        await editCommentIn(tx, post, comment, text, at)
        await federateComment(tx, post, comment, 'comment-update', at)
      })
    },

    /** The comment's author or the post's author may delete it. */
    remove(userId: string, postId: string, commentId: string) {
      return write(userId, postId, async (tx, post, at) => {
        const comment = await mustGetComment(tx, post, commentId)
        if (comment.authorId !== userId && post.authorId !== userId) throw badRequest(MSG.deleteCommentNotOwner)
        await deleteCommentIn(tx, post, comment)
        await federateComment(tx, post, comment, 'comment-delete', at)
      })
    },

    upvote: (userId: string, postId: string, commentId: string) => vote(userId, postId, commentId, true),
    downvote: (userId: string, postId: string, commentId: string) => vote(userId, postId, commentId, false),
  }
}

export type CommentsService = ReturnType<typeof createCommentsService>
