import { webcrypto } from 'node:crypto'
import type {
  AccountRecord,
  ActorKeysRecord,
  LocalCounts,
  PostRecord,
  RemoteActorRecord,
  StoreReader,
} from '../store/types.js'
import type { AccountSecrets } from './account-secrets.js'
import { shownTo } from './audience-reads.js'
import type { ServiceDeps } from './deps.js'
import { suspendedAt } from './moderation-access.js'

/**
 * Who has an actor (DECISIONS §14), and what their actor and its collections say: the rules federation's
 * dispatchers (server/federation/) translate into ActivityStreams. A person has one while they are there
 * for a signed-out reader: not a signup waiting for approval, not suspended. A deleted account is gone.
 */
export type PersonLookup = { kind: 'person'; user: AccountRecord } | { kind: 'gone' } | { kind: 'none' }

/** A person's two key pairs as JWK, the private keys opened. */
export interface PersonKeys {
  rsa: { publicKey: webcrypto.JsonWebKey; privateKey: webcrypto.JsonWebKey }
  ed25519: { publicKey: webcrypto.JsonWebKey; privateKey: webcrypto.JsonWebKey }
}

/** One page of a collection: its items, the cursor of the next page (null: the last), and the whole count. */
export interface CollectionPage<T> {
  items: T[]
  nextCursor: string | null
}

/** A person in a collection of people: one of this server, or of another (`remote`, where their actor is). */
export interface CollectedPerson {
  id: string
  remote?: RemoteActorRecord
}

/** How many items a page of a collection holds: Mastodon's size for followers and outboxes. */
const COLLECTION_PAGE = 20

const USAGE_TTL_MS = 10 * 60_000

const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
}

async function newPair(algorithm: webcrypto.RsaHashedKeyGenParams | 'Ed25519', secrets: AccountSecrets) {
  const pair = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair
  const [publicKey, privateKey] = await Promise.all([
    webcrypto.subtle.exportKey('jwk', pair.publicKey),
    webcrypto.subtle.exportKey('jwk', pair.privateKey),
  ])
  return { publicKey: JSON.stringify(publicKey), privateKey: secrets.sealActorKey(JSON.stringify(privateKey)) }
}

/** An offset cursor: collections of people are lists kept in order, read by place. */
function offsetOf(cursor: string): number | undefined {
  return /^\d{1,9}$/.test(cursor) ? Number(cursor) : undefined
}

export function createFederationPeople({ store, now, secrets }: ServiceDeps & { secrets: AccountSecrets }) {
  let counted: { at: number; counts: LocalCounts } | undefined

  async function lookup(reader: StoreReader, id: string): Promise<PersonLookup> {
    const user = await reader.getAccount(id)
    if (!user) return (await reader.wasDeleted(id)) ? { kind: 'gone' } : { kind: 'none' }
    // A person of another server has their actor there, not here.
    if (user.remote || user.pending || suspendedAt(user.suspension, now().toISOString())) return { kind: 'none' }
    return { kind: 'person', user }
  }

  /**
   * The people among `ids` who have an actor, here or on their own server (`remote`), in their order; a
   * suspended person is left out wherever they are from.
   */
  async function present(ids: readonly string[]): Promise<CollectedPerson[]> {
    const at = now().toISOString()
    const accounts = await Promise.all(ids.map((id) => store.getAccount(id)))
    return accounts.flatMap((user) =>
      user && !user.pending && !suspendedAt(user.suspension, at)
        ? [{ id: user._id, ...(user.remote ? { remote: user.remote } : {}) }]
        : [],
    )
  }

  /** A page of a list of people, without those who have no actor now. */
  async function peoplePage(ids: readonly string[], cursor: string): Promise<CollectionPage<CollectedPerson> | null> {
    const start = offsetOf(cursor)
    if (start === undefined) return null
    const end = start + COLLECTION_PAGE
    return { items: await present(ids.slice(start, end)), nextCursor: end < ids.length ? String(end) : null }
  }

  function open(keys: ActorKeysRecord): PersonKeys | undefined {
    const rsaPrivate = secrets.openActorKey(keys.rsaPrivate)
    const ed25519Private = secrets.openActorKey(keys.ed25519Private)
    // Sealed under another token secret: these keys cannot sign, and new ones would not match what others know.
    if (rsaPrivate === undefined || ed25519Private === undefined) return undefined
    return {
      rsa: {
        publicKey: JSON.parse(keys.rsaPublic) as webcrypto.JsonWebKey,
        privateKey: JSON.parse(rsaPrivate) as webcrypto.JsonWebKey,
      },
      ed25519: {
        publicKey: JSON.parse(keys.ed25519Public) as webcrypto.JsonWebKey,
        privateKey: JSON.parse(ed25519Private) as webcrypto.JsonWebKey,
      },
    }
  }

  return {
    person: (id: string) => lookup(store, id),

    /** Where the actor of a person of another server is; undefined for anyone else, or someone suspended here. */
    async remoteActor(id: string): Promise<RemoteActorRecord | undefined> {
      const user = await store.getAccount(id)
      return user?.remote && !suspendedAt(user.suspension, now().toISOString()) ? user.remote : undefined
    },

    /** The id of the person a WebFinger handle names, compared as usernames are; undefined when none has an actor. */
    async idOf(username: string) {
      const user = await store.getUserByUsername(username)
      if (!user) return undefined
      const found = await lookup(store, user._id)
      return found.kind === 'person' ? user._id : undefined
    },

    /**
     * The person's key pairs, made and kept the first time they are asked for; of two instances making them
     * at once, both answer the pairs kept first. Undefined for someone without an actor, or when the
     * private keys were sealed under a token secret that has since changed.
     */
    /** Key pairs as kept (a deleted person's, carried by the job that sends their Delete), opened. */
    openKeys: (kept: ActorKeysRecord): PersonKeys | undefined => open(kept),

    async keys(id: string): Promise<PersonKeys | undefined> {
      if ((await lookup(store, id)).kind !== 'person') return undefined
      const kept = await store.getActorKeys(id)
      if (kept) return open(kept)
      const [rsa, ed25519] = await Promise.all([newPair(RSA, secrets), newPair('Ed25519', secrets)])
      const made: ActorKeysRecord = {
        rsaPublic: rsa.publicKey,
        rsaPrivate: rsa.privateKey,
        ed25519Public: ed25519.publicKey,
        ed25519Private: ed25519.privateKey,
        createdAt: now().toISOString(),
      }
      const stored = await store.transaction((tx) => tx.addActorKeys(id, made))
      return stored && open(stored)
    },

    async followers(id: string, cursor: string) {
      const user = await store.getUser(id)
      return user ? peoplePage(user.followers, cursor) : null
    },
    async countFollowers(id: string) {
      const user = await store.getUser(id)
      return user ? (await present(user.followers)).length : null
    },
    async following(id: string, cursor: string) {
      const user = await store.getUser(id)
      return user ? peoplePage(user.following, cursor) : null
    },
    async countFollowing(id: string) {
      const user = await store.getUser(id)
      return user ? (await present(user.following)).length : null
    },

    /** The person's posts a signed-out reader sees on their profile (public and unlisted), newest first. */
    async posts(id: string, cursor: string | null): Promise<CollectionPage<PostRecord>> {
      const page = await store.listPosts({
        sort: 'latest',
        authorIds: [id],
        limit: COLLECTION_PAGE,
        ...(cursor === null ? {} : { cursor }),
        audience: shownTo(undefined),
      })
      return { items: page.items, nextCursor: page.nextCursor }
    },
    countPosts: (id: string) => store.countPosts(id, shownTo(undefined)),

    /** A post a signed-out reader may see, by someone who has an actor; undefined otherwise. */
    async post(id: string): Promise<PostRecord | undefined> {
      const post = await store.getPost(id)
      if (!post || (post.visibility !== undefined && post.visibility !== 'public' && post.visibility !== 'unlisted'))
        return undefined
      return (await lookup(store, post.authorId)).kind === 'person' ? post : undefined
    },

    /**
     * NodeInfo's usage, counted at most once in ten minutes: crawlers ask for it often, and a count over
     * every post is the one read here that grows with the whole server.
     */
    async usage() {
      const at = now().getTime()
      if (!counted || at - counted.at >= USAGE_TTL_MS) counted = { at, counts: await store.countCommunity() }
      return counted.counts
    },

    /** The posts the person pinned that a signed-out reader may see. */
    featured: (id: string) => store.listPinned(id, shownTo(undefined)),
  }
}

export type FederationPeople = ReturnType<typeof createFederationPeople>
