import { MSG, forbidden, notFound } from '../errors.js'
import type { Relation, StoreReader } from '../store/types.js'
import { suspendedAt } from './moderation-access.js'

/**
 * Whose content a reader does not see: the one place every read path asks (docs/api-contract.md §11).
 * Lists, search, tag pages, trending tags, suggestions, notifications, a post's likers and comments,
 * and each live stream leave out the people `hiddenFrom` names; the store's list reads take them as
 * `hide` and leave them out inside the query, so pages stay full and cursors right.
 *
 * Today three kinds of people are hidden from a reader: those they block, those who block them, and
 * those they mute while the mute runs. Another kind (suspended authors, say) is one more source read in
 * `hiddenFrom`: added to `people`, and to `shut` when even a direct read must answer 404.
 */
export interface Hidden {
  /** Everyone hidden from the reader, in no order: what the store's list reads take as `hide`. */
  readonly people: readonly string[]
  /**
   * Whose post, profile and posts the reader may not open directly either: those who block the reader,
   * to whom they answer 404 as if they were not there. Whom the reader blocks or mutes stay open to them.
   */
  readonly shut: ReadonlySet<string>
  /** When the soonest timed mute among `people` ends, in ms since the epoch: past it, ask again. */
  readonly until: number | undefined
  /**
   * Who among `people` is suspended: their likes and follows do not count while it lasts (DECISIONS §11),
   * so views take them out of likeCount and of follow lists as well.
   */
  readonly suspended: readonly string[]
}

/** A reader who is not signed in, or who hides nobody. */
const NOBODY_HIDDEN: Hidden = Object.freeze({
  people: Object.freeze([]),
  shut: new Set<string>(),
  until: undefined,
  suspended: Object.freeze([]),
})

/** Between a person and themselves: nothing. */
export const NO_RELATION: Relation = Object.freeze({ blocks: false, blockedBy: false, mutes: false })

/** Whether two people have a block between them, either way: then neither may act on the other. */
export const blockedEitherWay = (relation: Relation) => relation.blocks || relation.blockedBy

/** Whether the viewer does not hear from the other person at all: a block either way, or a running mute. */
export const hears = (relation: Relation) => !blockedEitherWay(relation) && !relation.mutes

/** The soonest of some ends, in ms since the epoch; undefined without any. */
const soonest = (ends: readonly (string | null | undefined)[]) => {
  const times = ends.flatMap((end) => (end === null || end === undefined ? [] : [Date.parse(end)]))
  return times.length > 0 ? Math.min(...times) : undefined
}

/**
 * Who is hidden from `readerId` at `at`, read from `store` (a transaction's reads when inside one). Suspended
 * people are hidden from everyone, signed in or not, and shut to direct reads too, until their suspension
 * ends (DECISIONS §8); their content comes back unchanged then.
 */
export async function hiddenFrom(store: StoreReader, readerId: string | undefined, at: Date): Promise<Hidden> {
  const when = at.toISOString()
  const [suspended, relations] = await Promise.all([
    store.listSuspended(when),
    readerId === undefined ? undefined : store.relationsOf(readerId, when),
  ])
  const suspendedIds = suspended.map((entry) => entry.userId).filter((id) => id !== readerId)
  const { blocking, blockedBy, muting } = relations ?? { blocking: [], blockedBy: [], muting: [] }
  if (suspendedIds.length + blocking.length + blockedBy.length + muting.length === 0) return NOBODY_HIDDEN
  return {
    people: [...new Set([...suspendedIds, ...blocking, ...blockedBy, ...muting.map((mute) => mute.userId)])],
    shut: new Set([...suspendedIds, ...blockedBy]),
    until: soonest([...suspended.map((entry) => entry.until), ...muting.map((mute) => mute.until)]),
    suspended: suspendedIds,
  }
}

/** Whose suspension is in force at `at`: their likes and follows count nowhere meanwhile. */
export async function suspendedPeople(store: StoreReader, at: Date): Promise<ReadonlySet<string>> {
  return new Set((await store.listSuspended(at.toISOString())).map((entry) => entry.userId))
}

/** Refuses, with 403, a write by `actorId` aimed at `otherId` (a follow, a like, a comment, a vote, a bookmark) across a block. */
export async function checkCanInteract(store: StoreReader, actorId: string, otherId: string, at: string) {
  if (actorId === otherId) return
  if (blockedEitherWay(await store.relationBetween(actorId, otherId, at))) throw forbidden(MSG.cannotInteract)
}

/**
 * Refuses, with the 404 `missing` every read of them answers, a write aimed at a suspended person or at
 * what they made, whichever way it goes (a like or an unlike, a follow or an unfollow): while the
 * suspension lasts none of it is there for anyone (DECISIONS §8), so nothing may change it either.
 */
export async function checkNotSuspended(store: StoreReader, otherId: string, at: string, missing: string) {
  const other = await store.getUser(otherId)
  if (other && suspendedAt(other.suspension, at)) throw notFound(missing)
}

/** The reader with who is hidden from them, as post views and list reads take it. */
export async function seeing<R extends { userId: string | undefined }>(
  store: StoreReader,
  reader: R,
  at: Date,
): Promise<R & { hidden: Hidden; at: Date }> {
  return { ...reader, hidden: await hiddenFrom(store, reader.userId, at), at }
}
