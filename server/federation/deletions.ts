import { Delete, PUBLIC_COLLECTION, importJwk, type Context, type SenderKeyPair } from '@fedify/fedify'
import { PERSON_DELETION } from '../services/account-deletion.js'
import { PermanentJobError } from '../services/jobs.js'
import type { ActorKeysRecord, JobPayload, RemoteActorRecord } from '../store/types.js'
import type { ChirpFederationData } from './context.js'
import { recipientsOf } from './notes.js'

/**
 * A person's account going (DECISIONS §14), both ways. Out: the `Delete` of a deleted local person's actor,
 * signed with the keys their deletion's job carries (the account, and its keys, are gone by then), to the
 * servers that knew them. In: a remote actor's `Delete` of itself, which services/account-deletion.ts
 * turns into the removal of that person and everything of theirs here.
 */

type Ctx = Context<ChirpFederationData>

/** Whether a delivery job names a person's deletion rather than a post's or a follow's activity. */
export const isPersonDeletion = (payload: JobPayload) => payload.send === PERSON_DELETION

/** The key pairs of a deleted person's actor, under the ids their actor gave them. */
async function senderKeys(ctx: Ctx, actor: URL, kept: ActorKeysRecord): Promise<SenderKeyPair[]> {
  const keys = ctx.data.people.openKeys(kept)
  if (!keys) throw new PermanentJobError('a person deletion whose keys cannot be opened')
  return [
    { keyId: new URL('#main-key', actor), privateKey: await importJwk(keys.rsa.privateKey, 'private') },
    { keyId: new URL('#key-2', actor), privateKey: await importJwk(keys.ed25519.privateKey, 'private') },
  ]
}

/** Sends the `Delete` of a deleted person's actor to the inboxes their deletion's job names, shared ones first. */
export async function sendPersonDeletion(ctx: Ctx, payload: JobPayload) {
  const { userId, keys, recipients } = payload
  if (typeof userId !== 'string' || typeof keys !== 'string' || typeof recipients !== 'string')
    throw new PermanentJobError('a person deletion without what it sends')
  const people = JSON.parse(recipients) as Pick<RemoteActorRecord, 'actorId' | 'inbox' | 'sharedInbox'>[]
  const me = ctx.getActorUri(userId)
  const deletion = new Delete({
    id: new URL(`${me.href}#delete`),
    actor: me,
    tos: [PUBLIC_COLLECTION],
    object: me,
  })
  const signers = await senderKeys(ctx, me, JSON.parse(keys) as ActorKeysRecord)
  await ctx.sendActivity(signers, recipientsOf(people), deletion, { preferSharedInbox: true })
}

/** A `Delete` of an actor by that actor: the person and everything of theirs here go. Any other changes nothing. */
export async function personDeleted(ctx: Ctx, deletion: Delete): Promise<boolean> {
  const actor = deletion.actorId
  if (!actor || deletion.objectId?.href !== actor.href) return false
  await ctx.data.deletion.remoteDeleted(actor.href)
  return true
}
