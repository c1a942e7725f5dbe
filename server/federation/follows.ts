import {
  Accept,
  Block,
  Follow,
  Reject,
  Undo,
  type Context,
  type InboxListenerSetters,
  type KvStore,
  type Recipient,
} from '@fedify/fedify'
import { randomUUID } from 'node:crypto'
import { PermanentJobError } from '../services/jobs.js'
import type { Outgoing } from '../services/remote-people.js'
import type { JobPayload } from '../store/types.js'
import type { ChirpFederationData } from './context.js'
import { undoneReaction } from './reactions.js'

/**
 * Follows both ways (DECISIONS §14), translated to and from the follow services: activities received
 * become calls of services/federation-follows.ts, and what those queue to send (a delivery job naming
 * the local and the remote person) becomes the activity, handed to Fedify to sign and deliver.
 */

type Ctx = Context<ChirpFederationData>

/** Where the id of a remote person's Follow of a local one is kept, to name it in the Accept or Reject. */
const followKey = (remoteActorId: string, localId: string) => ['chirp', 'follow', remoteActorId, localId] as const

/**
 * What a local person sends a remote one and may later undo, a Follow or a Block: where the id of the
 * latest is kept, for its Undo to name it again.
 */
const OWN = {
  follow: { Type: Follow, kept: 'following' },
  block: { Type: Block, kept: 'blocking' },
} as const
const ownKey = (made: keyof typeof OWN, localId: string, remoteActorId: string) =>
  ['chirp', OWN[made].kept, localId, remoteActorId] as const

/** The local person a URL of this server names (their actor, or a follow of theirs); undefined otherwise. */
function localPersonOf(ctx: Ctx, url: URL | null | undefined): string | undefined {
  if (!url || url.origin !== ctx.origin) return undefined
  const parsed = ctx.parseUri(new URL(url.pathname, url.origin))
  return parsed?.type === 'actor' ? parsed.identifier : undefined
}

/** The remote person who sent `activity`, fetched and kept when new; undefined when their actor cannot be read. */
async function senderOf(ctx: Ctx, activity: { actorId: URL | null }) {
  return activity.actorId ? ctx.data.remote.byActor(activity.actorId.href) : undefined
}

/**
 * The Follow `activity` (an Accept, Reject or Undo) is about, as its follower's and followee's ids: read
 * from this server's own follow id without a fetch, otherwise from the embedded Follow.
 */
async function followIn(ctx: Ctx, activity: Accept | Reject | Undo) {
  const local = localPersonOf(ctx, activity.objectId)
  if (local && activity.objectId?.hash.startsWith('#follows/')) return { follower: ctx.getActorUri(local) }
  const object = await activity.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader })
  if (!(object instanceof Follow) || !object.actorId || !object.objectId) return undefined
  return { follower: object.actorId, followee: object.objectId }
}

/** Adds the follow listeners to the inboxes. Each runs in an `inbox` job, after the signature was verified. */
export function listenForFollows(inbox: InboxListenerSetters<ChirpFederationData>, kv: KvStore) {
  inbox
    .on(Follow, async (ctx, follow) => {
      const local = localPersonOf(ctx, follow.objectId)
      const sender = local ? await senderOf(ctx, follow) : undefined
      if (!local || !sender?.remote) return
      if (follow.id) await kv.set(followKey(sender.remote.actorId, local), follow.id.href)
      await ctx.data.follows.followed(sender._id, local)
    })
    .on(Undo, async (ctx, undo) => {
      // An Undo of a like or a boost is theirs; whatever else it undoes is a follow or nothing.
      const ownFollow = localPersonOf(ctx, undo.objectId) && undo.objectId?.hash.startsWith('#follows/')
      if (!ownFollow) {
        const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
        const object = await undo.getObject(loaders).catch(() => null)
        if (await undoneReaction(ctx, kv, undo, object)) return
        if (object instanceof Block) return unblocked(ctx, undo, object)
      }
      const follow = await followIn(ctx, undo)
      // Only the follower undoes a follow: one naming someone else as its actor is not theirs to undo.
      if (!follow?.followee || follow.follower.href !== undo.actorId?.href) return
      const local = localPersonOf(ctx, follow.followee)
      const sender = local ? await senderOf(ctx, undo) : undefined
      if (local && sender) await ctx.data.follows.unfollowed(sender._id, local)
    })
    .on(Block, async (ctx, block) => {
      const local = localPersonOf(ctx, block.objectId)
      const sender = local ? await senderOf(ctx, block) : undefined
      if (local && sender?.remote) await ctx.data.follows.blocked(sender._id, local)
    })
    .on(Accept, async (ctx, accept) => answered(ctx, accept, true))
    .on(Reject, async (ctx, reject) => answered(ctx, reject, false))
}

/** An Undo of a Block: lifted only by the one who blocked. */
async function unblocked(ctx: Ctx, undo: Undo, block: Block) {
  if (block.actorId?.href !== undo.actorId?.href) return
  const local = localPersonOf(ctx, block.objectId)
  const sender = local ? await senderOf(ctx, undo) : undefined
  if (local && sender) await ctx.data.follows.unblocked(sender._id, local)
}

/** A remote person's answer to a local person's Follow: only the one followed answers it. */
async function answered(ctx: Ctx, activity: Accept | Reject, accept: boolean) {
  const follow = await followIn(ctx, activity)
  if (follow?.followee && follow.followee.href !== activity.actorId?.href) return
  const local = follow && localPersonOf(ctx, follow.follower)
  const sender = local ? await senderOf(ctx, activity) : undefined
  if (!local || !sender) return
  if (accept) await ctx.data.follows.accepted(sender._id, local)
  else await ctx.data.follows.rejected(sender._id, local)
}

const OUTGOING = new Set<string>([
  'follow',
  'undo-follow',
  'accept',
  'reject',
  'block',
  'undo-block',
] satisfies Outgoing[])

/**
 * Sends what a delivery job of the follow services names: the activity is made here and handed to Fedify,
 * which queues its signed delivery to the remote inbox (a job of its own, retried with backoff).
 */
export async function sendFollowActivity(ctx: Ctx, kv: KvStore, payload: JobPayload) {
  const { send, localId, remoteId } = payload
  if (typeof send !== 'string' || !OUTGOING.has(send) || typeof localId !== 'string' || typeof remoteId !== 'string')
    throw new PermanentJobError('a follow delivery without what it sends')
  const remote = await ctx.data.people.remoteActor(remoteId)
  // Someone gone meanwhile (or suspended here) is sent nothing: there is nobody to speak for, or to.
  if (!remote || (await ctx.data.people.person(localId)).kind !== 'person') return
  const me = ctx.getActorUri(localId)
  const them = new URL(remote.actorId)
  const recipient: Recipient = {
    id: them,
    inboxId: new URL(remote.inbox),
    endpoints: remote.sharedInbox ? { sharedInbox: new URL(remote.sharedInbox) } : null,
  }
  // Each activity an id of its own: a server keeps the ids it has seen and ignores one sent again.
  const stamp = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`
  let activity: Follow | Block | Undo | Accept | Reject
  const made = send.replace(/^undo-/, '')
  if (made === 'follow' || made === 'block') {
    const { Type } = OWN[made]
    const key = ownKey(made, localId, remote.actorId)
    if (send === made) {
      activity = new Type({ id: new URL(`${me.href}#${made}s/${remoteId}/${stamp}`), actor: me, object: them })
      await kv.set(key, activity.id?.href)
    } else {
      const kept = await kv.get<string>(key)
      const ours = new Type({ ...(kept ? { id: new URL(kept) } : {}), actor: me, object: them })
      activity = new Undo({ id: new URL(`${me.href}#undos/${remoteId}/${stamp}`), actor: me, object: ours })
    }
  } else {
    const kept = await kv.get<string>(followKey(remote.actorId, localId))
    const theirs = new Follow({ ...(kept ? { id: new URL(kept) } : {}), actor: them, object: me })
    const values = { id: new URL(`${me.href}#${send}s/${remoteId}/${stamp}`), actor: me, object: theirs }
    activity = send === 'accept' ? new Accept(values) : new Reject(values)
  }
  await ctx.sendActivity({ identifier: localId }, recipient, activity)
}
