import {
  createFederation,
  importJwk,
  kvCache,
  Note,
  parseSemVer,
  type DocumentLoader,
  type Federation,
  type KvStore,
  type MessageQueue,
} from '@fedify/fedify'
import type { Registration } from '../config.js'
import type { FederationKv } from '../store/types.js'
import type { PersonKeys } from '../services/federation-people.js'
import { personOf } from './actors.js'
import type { ChirpFederationData } from './context.js'
import { ChirpKvStore } from './kv-store.js'
import { createOf, noteOf } from './notes.js'
import { listenForFollows } from './follows.js'
import { commentNoteOf, commentOfId } from './comments.js'
import { listenForReactions } from './reactions.js'
import { listenForNotes } from './incoming-notes.js'

/** The paths of what federation serves, as Fedify names them; plugin.ts routes the same paths to Fedify. */
const ACTOR_PATH = '/ap/users/{identifier}'
const NOTE_PATH = '/ap/posts/{id}'
const SHARED_INBOX_PATH = '/ap/inbox'
const NODEINFO_PATH = '/nodeinfo/2.1'

/** The cursor of an outbox's first page, which the store reads without one. */
const FIRST = 'first'

export interface FederationOptions {
  /** PUBLIC_URL: the origin of every id, whatever the request's own Host and scheme say (DECISIONS §14). */
  origin: string
  kv: FederationKv
  /** Where Fedify's messages wait: Chirp's job queue. */
  queue: MessageQueue
  now: () => Date
  registration: Registration
  version: string
  /** How remote documents and keys are fetched: through the link fetcher, or a test's own loader. */
  documentLoader: DocumentLoader
}

async function cryptoPairs(keys: PersonKeys) {
  const pair = async (jwk: PersonKeys['rsa']) => ({
    publicKey: await importJwk(jwk.publicKey, 'public'),
    privateKey: await importJwk(jwk.privateKey, 'private'),
  })
  return [await pair(keys.rsa), await pair(keys.ed25519)]
}

/**
 * Chirp's Fedify federation: each dispatcher asks the federation services (ctx.data) and translates what
 * they answer; none reaches the store. Inboxes verify signatures (Fedify refuses an unsigned or badly
 * signed activity, or one signed with a key its actor does not own, with 401) and then act on follows.
 * `kv` is what Fedify keeps, and where the follow listeners keep the ids of follows received.
 */
export function createChirpFederation(options: FederationOptions): {
  federation: Federation<ChirpFederationData>
  kv: KvStore
} {
  const loader = options.documentLoader
  const kv = new ChirpKvStore(options.kv, options.now)
  const federation = createFederation<ChirpFederationData>({
    kv,
    queue: options.queue,
    // Started by registerFederation as the app starts, not at the first request: see there.
    manuallyStartQueue: true,
    origin: options.origin,
    // Both of Fedify's loaders, the plain one and the one that signs its fetches, fetch unsigned through
    // the link fetcher, cached a while in the store as Fedify caches its own. JSON-LD contexts keep
    // Fedify's loader, which has the usual ones built in.
    documentLoaderFactory: () => kvCache({ loader, kv, prefix: ['_fedify', 'remoteDocument'] }),
    authenticatedDocumentLoaderFactory: () => kvCache({ loader, kv, prefix: ['_fedify', 'remoteDocument'] }),
  })

  federation
    .setActorDispatcher(ACTOR_PATH, async (ctx, identifier) => {
      const found = await ctx.data.people.person(identifier)
      return found.kind === 'person' ? personOf(ctx, found.user) : null
    })
    .setKeyPairsDispatcher(async (ctx, identifier) => {
      const keys = await ctx.data.people.keys(identifier)
      return keys ? cryptoPairs(keys) : []
    })
    .mapHandle(async (ctx, username) => (await ctx.data.people.idOf(username)) ?? null)

  federation.setObjectDispatcher(Note, NOTE_PATH, async (ctx, { id }) => {
    const comment = commentOfId(id)
    if (comment) {
      const found = await ctx.data.comments.served(comment.postId, comment.commentId)
      const visibility = found?.post?.visibility ?? 'public'
      return found
        ? ((await commentNoteOf(ctx, kv, { authorId: found.comment?.authorId ?? '', visibility }, found)) ?? null)
        : null
    }
    const post = await ctx.data.people.post(id)
    return post ? noteOf(ctx, post, await ctx.data.posts.mentionedBy(post)) : null
  })

  federation
    .setOutboxDispatcher('/ap/users/{identifier}/outbox', async (ctx, identifier, cursor) => {
      if ((await ctx.data.people.person(identifier)).kind !== 'person') return null
      if (cursor === null) return { items: [] }
      // A cursor the store cannot read is no page, as a forged one is on Chirp's own lists.
      const page = await ctx.data.people.posts(identifier, cursor === FIRST ? null : cursor).catch(() => null)
      if (!page) return null
      const items = await Promise.all(
        page.items.map(async (post) => createOf(ctx, post, await ctx.data.posts.mentionedBy(post))),
      )
      return { items, nextCursor: page.nextCursor }
    })
    .setCounter(async (ctx, identifier) => ctx.data.people.countPosts(identifier))
    .setFirstCursor(() => FIRST)

  federation
    .setFollowersDispatcher('/ap/users/{identifier}/followers', async (ctx, identifier, cursor) => {
      if ((await ctx.data.people.person(identifier)).kind !== 'person') return null
      if (cursor === null) return { items: [] }
      const page = await ctx.data.people.followers(identifier, cursor)
      if (!page) return null
      const items = page.items.map(({ id, remote }) =>
        remote
          ? { id: new URL(remote.actorId), inboxId: new URL(remote.inbox) }
          : { id: ctx.getActorUri(id), inboxId: ctx.getInboxUri(id) },
      )
      return { items, nextCursor: page.nextCursor }
    })
    .setCounter(async (ctx, identifier) => ctx.data.people.countFollowers(identifier))
    .setFirstCursor(() => '0')

  federation
    .setFollowingDispatcher('/ap/users/{identifier}/following', async (ctx, identifier, cursor) => {
      if ((await ctx.data.people.person(identifier)).kind !== 'person') return null
      if (cursor === null) return { items: [] }
      const page = await ctx.data.people.following(identifier, cursor)
      if (!page) return null
      const items = page.items.map(({ id, remote }) => (remote ? new URL(remote.actorId) : ctx.getActorUri(id)))
      return { items, nextCursor: page.nextCursor }
    })
    .setCounter(async (ctx, identifier) => ctx.data.people.countFollowing(identifier))
    .setFirstCursor(() => '0')

  federation
    .setFeaturedDispatcher('/ap/users/{identifier}/featured', async (ctx, identifier) => {
      if ((await ctx.data.people.person(identifier)).kind !== 'person') return null
      const pinned = await ctx.data.people.featured(identifier)
      const items = await Promise.all(
        pinned.map(async (post) => noteOf(ctx, post, await ctx.data.posts.mentionedBy(post))),
      )
      return { items }
    })
    .setCounter(async (ctx, identifier) => (await ctx.data.people.featured(identifier)).length)

  const inbox = federation.setInboxListeners('/ap/users/{identifier}/inbox', SHARED_INBOX_PATH)
  listenForFollows(inbox, kv)
  listenForNotes(inbox, kv)
  listenForReactions(inbox, kv)

  federation.setNodeInfoDispatcher(NODEINFO_PATH, async (ctx) => {
    const usage = await ctx.data.people.usage()
    return {
      software: { name: 'chirp', version: parseSemVer(options.version) },
      protocols: ['activitypub'],
      openRegistrations: options.registration === 'open' || options.registration === 'approval',
      usage: { users: { total: usage.users }, localPosts: usage.posts, localComments: usage.comments },
    }
  })

  return { federation, kv }
}
