import { CURSOR, pageOf, type SortKey } from './cursor.js'
import type { ListPlacesRecord, Page, PageRequest, UserRecord } from './types.js'

/**
 * The place each entry holds in a person's lists that grow at their end (bookmarks, likes, blocks,
 * mutes, follow requests): a number given when the entry joins its list, from a counter of the person's that only grows,
 * as PostgreSQL numbers the same rows by `activity_seq`. A page's cursor is the place of its last entry,
 * so the next page starts after that entry wherever the list has grown or shrunk since; counting by
 * offset showed an entry twice after an addition and skipped one after a removal.
 *
 * The places are kept on the person's record, worked out whenever the record is written from the record
 * it replaces, so a cursor goes on after a restart as it does on PostgreSQL: an entry keeps its place
 * while it stays, and one that is new or was taken back and made again (it is then after an entry with
 * a higher place) takes the next. A record written before places were kept has its lists numbered in
 * order above its counter, the same at every read, and keeps those numbers from its next write on.
 */
type PlacedList = 'bookmarks' | 'likes' | 'blocking' | 'muting' | 'followRequests'
const LISTS: readonly PlacedList[] = ['bookmarks', 'likes', 'blocking', 'muting', 'followRequests']

/**
 * The entries of one of the user's lists, oldest first. `likes` is the user's liked posts as the store
 * works them out, which a record written before records kept them does not hold.
 */
function entriesOf(user: UserRecord, list: PlacedList, likes: readonly string[]): readonly string[] {
  if (list === 'bookmarks') return user.bookmarks
  if (list === 'likes') return user.likes ?? likes
  if (list === 'blocking') return user.blocking ?? []
  if (list === 'followRequests') return user.followRequests ?? []
  return (user.muting ?? []).map((mute) => mute.userId)
}

/** The places of every list of the user's, each aligned with its list. */
function placesOf(user: UserRecord, likes: readonly string[]): ListPlacesRecord {
  let last = user.places?.last ?? 0
  const places = {} as Record<PlacedList, readonly number[]>
  for (const list of LISTS) {
    const kept = user.places?.[list]
    const count = entriesOf(user, list, likes).length
    places[list] = kept?.length === count ? kept : Array.from({ length: count }, () => ++last)
  }
  return { last, ...places }
}

/**
 * The record to store in place of `previous` (undefined for a new one): `next` with the places of its
 * lists, and its liked posts held on it from then on. A record none of whose lists ever held anything
 * is left as it is.
 */
export function withPlaces(previous: UserRecord | undefined, next: UserRecord, likes: readonly string[]): UserRecord {
  const before = previous && placesOf(previous, likes)
  let last = before?.last ?? 0
  const places = {} as Record<PlacedList, readonly number[]>
  for (const list of LISTS) {
    // A list the write left as it was (the same array) keeps its places as they were.
    if (previous && before && previous[list] === next[list]) {
      places[list] = before[list]
      continue
    }
    const had = new Map<string, number>()
    if (previous && before) entriesOf(previous, list, likes).forEach((id, i) => had.set(id, before[list][i] ?? 0))
    let prior = 0
    places[list] = entriesOf(next, list, likes).map((id) => {
      let place = had.get(id)
      if (place === undefined || place <= prior) place = ++last
      prior = place
      return place
    })
  }
  if (last === 0) return next
  return { ...next, likes: next.likes ?? [...likes], places: { last, ...places } }
}

/**
 * A page of one of the user's lists (none for an unknown user): newest first (`direction` -1) or oldest
 * first (1), after the cursor's place, of the entries `shown` keeps (all of them without it).
 */
export function pageByPlace(
  user: UserRecord | undefined,
  list: PlacedList,
  likes: readonly string[],
  direction: 1 | -1,
  request: PageRequest,
  shown?: (id: string) => boolean,
): Page<string> {
  const entries = user ? entriesOf(user, list, likes) : []
  const places = user ? placesOf(user, likes)[list] : []
  const indices: number[] = []
  for (let i = 0; i < entries.length; i++) if (!shown || shown(entries[i] as string)) indices.push(i)
  const key: SortKey<number> = {
    of: (i) => [places[i] ?? 0],
    parts: CURSOR.byPosition,
    compare: (a, b) => (places[a] ?? 0) - (places[b] ?? 0),
  }
  const { items, nextCursor } = pageOf(indices, key, direction, request)
  return { items: items.map((i) => entries[i] as string), nextCursor }
}
