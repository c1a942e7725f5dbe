import { randomUUID } from 'node:crypto'
import { Parser } from 'htmlparser2'
import { PRESET_AVATARS, defaultAvatarOf } from '../../common/avatars.js'
import { LIMITS } from '../../common/limits.js'
import { MSG, notFound } from '../errors.js'
import type { StoreTx, UserRecord } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { isValidAvatarUrl, isValidMediaUrl } from './urls.js'

/**
 * People of other servers (DECISIONS §14), as Chirp keeps them: a user like any other whose username is
 * `name@host` and who carries `remote` (where their actor is). They have no password, e-mail or keys of
 * ours, so they never sign in; their profile is what their actor last said, fetched again once it is a
 * day old.
 */

/** A remote actor as federation/ reads it, before Chirp keeps it. */
export interface RemoteProfile {
  actorId: string
  /** Their `preferredUsername`. */
  username: string
  /** Their `name`, plain text. */
  name: string
  /** Their `summary`, HTML as their server sent it. */
  summary: string
  /** Their icon and image: the avatar and the banner. */
  icon?: string
  image?: string
  /** `manuallyApprovesFollowers`. */
  locked: boolean
  inbox: string
  sharedInbox?: string
  /** Their page; the actor's id when it names none. */
  url: string
  keyIds: string[]
}

/** How remote actors are found: federation/ gives one when federation is on. */
export interface RemoteDirectory {
  /** The person `name@host` names, through their server's WebFinger and then their actor. */
  byHandle(name: string, host: string): Promise<RemoteProfile | undefined>
  /** The actor at `actorId`. */
  byActor(actorId: string): Promise<RemoteProfile | undefined>
}

/** What Chirp sends to a remote person on a person's behalf. */
export type Outgoing = 'follow' | 'undo-follow' | 'accept' | 'reject' | 'block' | 'undo-block'

/** How long what an actor said is trusted before it is fetched again. */
const FRESH_MS = 24 * 60 * 60_000

const NAME = /^[A-Za-z0-9_.~-]{1,100}$/

/**
 * Queues `send` from the local person to the remote one as a delivery job, committed with the write that
 * caused it: federation/ turns it into the activity and signs and delivers it.
 */
export async function federateIn(tx: StoreTx, send: Outgoing, localId: string, remoteId: string, at: string) {
  await tx.enqueueJob({ _id: randomUUID(), kind: 'delivery', payload: { send, localId, remoteId }, runAt: at }, at)
}

/** At most `max` characters (code points), cut with an ellipsis. */
export function cut(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

const BLOCKS = new Set(['p', 'div', 'li', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
const UNSEEN = new Set(['script', 'style', 'template'])

/** Remote HTML as the plain text a bio is: its text alone, line breaks and paragraphs kept, entities decoded. */
export function htmlToText(html: string): string {
  let text = ''
  let hidden = 0
  const parser = new Parser(
    {
      onopentag(name) {
        if (UNSEEN.has(name)) hidden++
        if (name === 'br') text += '\n'
      },
      ontext(part) {
        if (hidden === 0) text += part
      },
      onclosetag(name) {
        if (UNSEEN.has(name)) hidden = Math.max(0, hidden - 1)
        if (BLOCKS.has(name)) text += '\n\n'
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  parser.end()
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** The user a remote profile is, under `id`, known since `createdAt`. */
function recordOf(profile: RemoteProfile, id: string, createdAt: string, at: string): UserRecord {
  const username = `${profile.username}@${new URL(profile.actorId).host}`
  const name = cut(htmlToText(profile.name), LIMITS.name)
  const avatarURL =
    profile.icon && isValidAvatarUrl(profile.icon) ? profile.icon : defaultAvatarOf(username, PRESET_AVATARS)
  const bannerURL = profile.image && isValidMediaUrl(profile.image) ? profile.image : undefined
  return {
    _id: id,
    username,
    firstName: name || profile.username,
    lastName: '',
    email: '',
    passwordHash: '',
    avatarURL,
    ...(name ? { displayName: name } : {}),
    ...(bannerURL ? { bannerURL } : {}),
    bio: cut(htmlToText(profile.summary), LIMITS.bio),
    website: '',
    createdAt,
    updatedAt: at,
    bookmarks: [],
    following: [],
    followers: [],
    tokenVersion: 0,
    ...(profile.locked ? { locked: true as const } : {}),
    remote: {
      actorId: profile.actorId,
      inbox: profile.inbox,
      ...(profile.sharedInbox ? { sharedInbox: profile.sharedInbox } : {}),
      url: profile.url,
      keyIds: profile.keyIds,
      fetchedAt: at,
    },
  }
}

export function createRemotePeople({ store, now, publicUrl }: ServiceDeps & { publicUrl: string }) {
  let directory: RemoteDirectory | undefined
  /** This server's own host: its people are never looked up as remote ones. */
  const ownHost = new URL(publicUrl).host

  const fresh = (user: UserRecord | undefined): user is UserRecord =>
    !!user?.remote && now().getTime() - Date.parse(user.remote.fetchedAt) < FRESH_MS

  /** Keeps what the actor says now; undefined when its name is not one Chirp can show, or is another actor's. */
  async function save(profile: RemoteProfile): Promise<UserRecord | undefined> {
    if (!NAME.test(profile.username)) return undefined
    const at = now().toISOString()
    try {
      const saved = await store.transaction(async (tx) => {
        const known = await tx.getUserByActor(profile.actorId)
        const record = recordOf(profile, known?._id ?? randomUUID(), known?.createdAt ?? at, at)
        const holder = await tx.getUserByUsername(record.username)
        // A name of a host is that host's to give: another actor holding it is one the host has since replaced.
        if (holder && holder._id !== record._id) return undefined
        await tx.saveRemoteUser(record)
        return record._id
      })
      return saved === undefined ? undefined : store.getUser(saved)
    } catch (error) {
      // Two of their activities at once (or two instances) kept the same new actor: the first one stands.
      const kept = await store.getUserByActor(profile.actorId)
      if (kept) return kept
      throw error
    }
  }

  return {
    /** Federation/ gives how actors are found as it starts; without it, only people known already are found. */
    attach(found: RemoteDirectory) {
      directory = found
    },

    /**
     * The person `name@host` (a leading `@` allowed) names: as kept while fresh, otherwise found again
     * through their server; as last kept when their server does not answer. A 404 when nobody is found.
     */
    async byHandle(handle: string): Promise<UserRecord> {
      const bare = handle.replace(/^@/, '')
      const at = bare.lastIndexOf('@')
      const [name, host] = [bare.slice(0, at), bare.slice(at + 1).toLowerCase()]
      if (host === ownHost) {
        const local = await store.getUserByUsername(name)
        if (local && !local.remote) return local
        throw notFound(MSG.userNotFound)
      }
      const known = await store.getUserByUsername(`${name}@${host}`)
      if (fresh(known)) return known
      const profile = await directory?.byHandle(name, host).catch(() => undefined)
      const found = profile && (await save(profile))
      if (found) return found
      if (known) return known
      throw notFound(MSG.userNotFound)
    },

    /**
     * A remote person's `Update` of their own actor: their profile (name, bio, avatar, banner, `locked`)
     * as it now is, kept when they are known here; nobody new is kept from it.
     */
    async updated(profile: RemoteProfile) {
      if (!(await store.getUserByActor(profile.actorId))) return
      await save(profile)
    },

    /** The person whose actor this is, fetched when not known or no longer fresh; undefined when it cannot be read. */
    async byActor(actorId: string): Promise<UserRecord | undefined> {
      if (URL.canParse(actorId) && new URL(actorId).host === ownHost) return undefined
      const known = await store.getUserByActor(actorId)
      if (fresh(known)) return known
      const profile = await directory?.byActor(actorId).catch(() => undefined)
      return (profile && profile.actorId === actorId && (await save(profile))) || known
    },
  }
}

export type RemotePeople = ReturnType<typeof createRemotePeople>
