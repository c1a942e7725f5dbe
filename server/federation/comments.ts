import { Create, Delete, Note, PUBLIC_COLLECTION, Tombstone, Update, type Context, type KvStore } from '@fedify/fedify'
import { randomUUID } from 'node:crypto'
import { Temporal } from '@js-temporal/polyfill'
import { PermanentJobError } from '../services/jobs.js'
import type { CommentDelivery, CommentSend, CommentTarget, RemoteComments } from '../services/remote-comments.js'
import type { JobPayload } from '../store/types.js'
import type { ChirpFederationData } from './context.js'
import { contentHtml, noteUri, recipientsOf } from './notes.js'

/**
 * Comments as replies (DECISIONS §14): a comment of this server is a note at its post's note address with
 * `~` and its own id, answering (`inReplyTo`) the post's note or the note of the comment it replies to. A
 * comment received keeps its note's id under `commentKey`, and its note's id under `commentNoteKey`, so
 * its edits and deletion find it and replies made here name it.
 */

type Ctx = Context<ChirpFederationData>

/** A comment's note id as this server mints it (the `{id}` of the note path): its post's id, `~`, its own. */
const SEPARATOR = '~'

export const commentKey = (noteId: string) => ['chirp', 'comment', noteId] as const
export const commentNoteKey = (commentId: string) => ['chirp', 'comment-note', commentId] as const

/** Where a comment written here lives. */
const commentUri = (ctx: Ctx, postId: string, commentId: string) =>
  noteUri(ctx, { _id: `${postId}${SEPARATOR}${commentId}` })

/** A note path's `{id}` as a comment's post and own id, when it names a comment. */
export function commentOfId(id: string): { postId: string; commentId: string } | undefined {
  const [postId, commentId, ...rest] = id.split(SEPARATOR)
  return postId && commentId && rest.length === 0 ? { postId, commentId } : undefined
}

/**
 * What a note answering `inReplyTo` is a comment on, when that is known here: a post or comment of this
 * server (by its address), a remote post kept here, or a remote comment kept here.
 */
export async function targetOf(ctx: Ctx, kv: KvStore, inReplyTo: URL): Promise<CommentTarget | undefined> {
  if (inReplyTo.origin === ctx.origin) {
    const parsed = ctx.parseUri(inReplyTo)
    if (parsed?.type !== 'object' || parsed.class !== Note) return undefined
    const id = parsed.values.id ?? ''
    const comment = commentOfId(id)
    return comment ? { postId: comment.postId, replyTo: comment.commentId } : { postId: id }
  }
  const kept = await kv.get<{ postId: string; commentId: string }>(commentKey(inReplyTo.href))
  if (kept) return { postId: kept.postId, replyTo: kept.commentId }
  const postId = await ctx.data.comments.postOfNote(inReplyTo.href)
  return postId ? { postId } : undefined
}

type Outgoing = NonNullable<Awaited<ReturnType<RemoteComments['outgoing']>>>

/**
 * Who a comment's note is addressed to, by its post's audience (DECISIONS §12: a comment is seen by those
 * who see its post): as the post is, with the post's author named beside.
 */
function addressingOf(ctx: Ctx, delivery: Pick<CommentDelivery, 'authorId' | 'visibility'>, found: Outgoing) {
  const postAuthor = found.postAuthorActor
    ? new URL(found.postAuthorActor)
    : found.post
      ? ctx.getActorUri(found.post.authorId)
      : undefined
  const writerFollowers = ctx.getFollowersUri(delivery.authorId)
  const author = postAuthor ? [postAuthor] : []
  const postFollowers = found.post && !found.post.remote ? [ctx.getFollowersUri(found.post.authorId)] : []
  const people = found.recipients.map((person) => new URL(person.actorId))
  if (delivery.visibility === 'public') return { tos: [PUBLIC_COLLECTION], ccs: [writerFollowers, ...author] }
  if (delivery.visibility === 'unlisted') return { tos: [writerFollowers, ...author], ccs: [PUBLIC_COLLECTION] }
  if (delivery.visibility === 'followers') return { tos: [...author, ...postFollowers], ccs: [] }
  return { tos: [...author, ...people], ccs: [] }
}

/** The note of a comment written here, answering its post's note or the comment it replies to. */
export async function commentNoteOf(
  ctx: Ctx,
  kv: KvStore,
  delivery: Pick<CommentDelivery, 'authorId' | 'visibility'>,
  found: Outgoing,
): Promise<Note | undefined> {
  const { post, comment, answered } = found
  if (!post || !comment) return undefined
  let inReplyTo = post.remote ? new URL(post.remote.noteId) : noteUri(ctx, post)
  if (answered) {
    const kept = answered.remote ? await kv.get<string>(commentNoteKey(answered._id)) : undefined
    if (kept) inReplyTo = new URL(kept)
    else if (!answered.remote) inReplyTo = commentUri(ctx, post._id, answered._id)
  }
  const mentioned = await ctx.data.posts.mentionedBy({ content: comment.text })
  return new Note({
    id: commentUri(ctx, post._id, comment._id),
    attribution: ctx.getActorUri(comment.authorId),
    replyTarget: inReplyTo,
    ...addressingOf(ctx, delivery, found),
    content: contentHtml(ctx, comment.text, mentioned),
    url: new URL(`/post-detail/${encodeURIComponent(post._id)}`, ctx.origin),
    published: Temporal.Instant.from(comment.createdAt),
    ...(comment.updatedAt !== comment.createdAt ? { updated: Temporal.Instant.from(comment.updatedAt) } : {}),
  })
}

const SENDS = new Set<string>(['comment-create', 'comment-update', 'comment-delete'] satisfies CommentSend[])

/** Whether a delivery job names a comment's activity (remote-comments.ts). */
export const isCommentDelivery = (payload: JobPayload) => typeof payload.send === 'string' && SENDS.has(payload.send)

/**
 * Sends what a comment's delivery job names: the Create, Update or Delete of its note, to those who see
 * its post. Fedify queues one delivery job per inbox.
 */
export async function sendCommentActivity(ctx: Ctx, kv: KvStore, payload: JobPayload) {
  const { send, postId, commentId, authorId, visibility, remoteIds } = payload
  if (
    typeof postId !== 'string' ||
    typeof commentId !== 'string' ||
    typeof authorId !== 'string' ||
    typeof visibility !== 'string' ||
    typeof remoteIds !== 'string'
  )
    throw new PermanentJobError('a comment delivery without what it sends')
  const delivery = { send, postId, commentId, authorId, visibility, remoteIds } as CommentDelivery
  const found = await ctx.data.comments.outgoing(delivery)
  if (found.recipients.length === 0 || (await ctx.data.people.person(authorId)).kind !== 'person') return
  const me = ctx.getActorUri(authorId)
  const id = commentUri(ctx, postId, commentId)
  const stamp = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`
  let activity: Create | Update | Delete
  if (send === 'comment-delete') {
    activity = new Delete({
      id: new URL(`${id.href}#delete`),
      actor: me,
      ...addressingOf(ctx, delivery, found),
      object: new Tombstone({ id }),
    })
  } else {
    // Edited or deleted before this job ran: a later job sends what it became.
    const note = await commentNoteOf(ctx, kv, delivery, found)
    if (!note) return
    const values = { actor: me, tos: note.toIds, ccs: note.ccIds, object: note }
    activity =
      send === 'comment-create'
        ? new Create({ id: new URL(`${id.href}#create`), published: note.published, ...values })
        : new Update({ id: new URL(`${id.href}#update/${stamp}`), ...values })
  }
  await ctx.sendActivity({ identifier: authorId }, recipientsOf(found.recipients), activity, {
    preferSharedInbox: true,
  })
}
