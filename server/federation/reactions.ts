import {
  Announce,
  Like,
  PUBLIC_COLLECTION,
  Undo,
  type Context,
  type InboxListenerSetters,
  type KvStore,
} from '@fedify/fedify'
import { randomUUID } from 'node:crypto'
import { Temporal } from '@js-temporal/polyfill'
import { PermanentJobError } from '../services/jobs.js'
import type { ReactionDelivery, ReactionSend } from '../services/remote-reactions.js'
import type { JobPayload } from '../store/types.js'
import { targetOf } from './comments.js'
import type { ChirpFederationData } from './context.js'
import { noteUri, recipientsOf } from './notes.js'

/**
 * Likes and boosts both ways (DECISIONS §14), translated to and from services/remote-reactions.ts: a
 * `Like` or `Announce` of a post known here is its actor's like or repost, their `Undo` of it takes it
 * back (only theirs); what the service queues becomes the activity, handed to Fedify to deliver.
 */

type Ctx = Context<ChirpFederationData>

/** Where the id of a local person's latest Like or Announce of a post is kept, for its Undo to name it. */
const ownKey = (kind: 'like' | 'announce', userId: string, postId: string) => ['chirp', kind, userId, postId] as const

/** The post here a Like or Announce names: one of this server's, or a remote post kept here (not a comment). */
async function postOf(ctx: Ctx, kv: KvStore, object: URL | null) {
  const target = object ? await targetOf(ctx, kv, object) : undefined
  return target && !target.replyTo ? target.postId : undefined
}

/** The remote person who sent an activity, fetched and kept when new. */
const senderOf = (ctx: Ctx, activity: { actorId: URL | null }) =>
  activity.actorId ? ctx.data.remote.byActor(activity.actorId.href) : undefined

/** Adds the Like and Announce listeners to the inboxes. */
export function listenForReactions(inbox: InboxListenerSetters<ChirpFederationData>, kv: KvStore) {
  inbox
    .on(Like, async (ctx, like) => {
      const postId = await postOf(ctx, kv, like.objectId)
      const sender = postId ? await senderOf(ctx, like) : undefined
      if (postId && sender) await ctx.data.reactions.liked(sender._id, postId, true)
    })
    .on(Announce, async (ctx, announce) => {
      const postId = await postOf(ctx, kv, announce.objectId)
      const sender = postId ? await senderOf(ctx, announce) : undefined
      if (postId && sender) await ctx.data.reactions.reposted(sender._id, postId, true)
    })
}

/**
 * An `Undo` of a Like or Announce (the Undo listener of follows.ts hands it here): taken back only when the
 * one undoing is the one who liked or reposted. Answers whether it was one.
 */
export async function undoneReaction(ctx: Ctx, kv: KvStore, undo: Undo, object: unknown): Promise<boolean> {
  if (!(object instanceof Like) && !(object instanceof Announce)) return false
  if (!object.actorId || object.actorId.href !== undo.actorId?.href) return true
  const postId = await postOf(ctx, kv, object.objectId)
  const sender = postId ? await senderOf(ctx, undo) : undefined
  if (!postId || !sender) return true
  if (object instanceof Like) await ctx.data.reactions.liked(sender._id, postId, false)
  else await ctx.data.reactions.reposted(sender._id, postId, false)
  return true
}

const SENDS = new Set<string>(['like', 'undo-like', 'announce', 'undo-announce'] satisfies ReactionSend[])

/** Whether a delivery job names a like's or a repost's activity. */
export const isReactionDelivery = (payload: JobPayload) => typeof payload.send === 'string' && SENDS.has(payload.send)

/** Sends what a like's or repost's delivery job names: its Like or Announce, or the Undo of it. */
export async function sendReactionActivity(ctx: Ctx, kv: KvStore, payload: JobPayload) {
  const { send, userId, postId } = payload
  if (typeof send !== 'string' || typeof userId !== 'string' || typeof postId !== 'string')
    throw new PermanentJobError('a reaction delivery without what it sends')
  const delivery = { send, userId, postId } as ReactionDelivery
  const found = await ctx.data.reactions.outgoing(delivery)
  if (!found || found.recipients.length === 0 || (await ctx.data.people.person(userId)).kind !== 'person') return
  const { post, authorActor } = found
  const me = ctx.getActorUri(userId)
  const object = post.remote ? new URL(post.remote.noteId) : noteUri(ctx, post)
  const author = authorActor ? new URL(authorActor) : ctx.getActorUri(post.authorId)
  const kind = send === 'like' || send === 'undo-like' ? 'like' : 'announce'
  const stamp = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`
  const addressing =
    kind === 'like' ? { to: author } : { tos: [PUBLIC_COLLECTION], ccs: [ctx.getFollowersUri(userId), author] }
  let activity: Like | Announce | Undo
  if (send === 'like' || send === 'announce') {
    const values = { id: new URL(`${me.href}#${kind}s/${postId}/${stamp}`), actor: me, object, ...addressing }
    activity = kind === 'like' ? new Like(values) : new Announce({ ...values, published: Temporal.Now.instant() })
    await kv.set(ownKey(kind, userId, postId), activity.id?.href)
  } else {
    const kept = await kv.get<string>(ownKey(kind, userId, postId))
    const values = { ...(kept ? { id: new URL(kept) } : {}), actor: me, object, ...addressing }
    const ours = kind === 'like' ? new Like(values) : new Announce(values)
    activity = new Undo({ id: new URL(`${me.href}#undos/${postId}/${stamp}`), actor: me, object: ours, ...addressing })
  }
  await ctx.sendActivity({ identifier: userId }, recipientsOf(found.recipients), activity, {
    preferSharedInbox: true,
  })
}
