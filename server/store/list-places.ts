import { CURSOR, pageOf, type SortKey } from './cursor.js'
import type { Page, PageRequest } from './types.js'

/**
 * The place each entry took in a person's list that grows at its end (bookmarks, likes, blocks, mutes):
 * a number given when the entry is first seen at the end of its list, from one counter that only grows,
 * as PostgreSQL numbers the same rows by `activity_seq`. A page's cursor is the place of its last entry,
 * so the next page starts after that entry wherever the list has grown or shrunk since; counting by
 * offset showed an entry twice after an addition and skipped one after a removal.
 *
 * Places are given when a list is read, from the list as it then is: an entry keeps its place while it
 * stays, and one that is new or was taken back and made again (it is then after an entry with a higher
 * place) takes the next. They live as long as the process, which is as long as the embedded store's
 * index lives; a restart numbers every list afresh, so a cursor from before it may show one entry again.
 */
export class ListPlaces {
  readonly #places = new Map<string, Map<string, number>>()
  #last = 0

  clear(): void {
    this.#places.clear()
  }

  /** The places of `ascending` (the list, oldest entry first) under `name`, given now where missing. */
  #placesOf(name: string, ascending: readonly string[]): Map<string, number> {
    const before = this.#places.get(name) ?? new Map<string, number>()
    const places = new Map<string, number>()
    let last = 0
    for (const id of ascending) {
      let place = before.get(id)
      if (place === undefined || place <= last) place = ++this.#last
      places.set(id, place)
      last = place
    }
    this.#places.set(name, places)
    return places
  }

  /**
   * A page of the list named `name` (a kind and its owner), `ascending` being its entries oldest first:
   * newest first (`direction` -1) or oldest first (1), after the cursor's place.
   */
  page(name: string, ascending: readonly string[], direction: 1 | -1, request: PageRequest): Page<string> {
    const places = this.#placesOf(name, ascending)
    const placeOf = (id: string) => places.get(id) ?? 0
    const key: SortKey<string> = {
      of: (id) => [placeOf(id)],
      parts: CURSOR.byPosition,
      compare: (a, b) => placeOf(a) - placeOf(b),
    }
    return pageOf(ascending, key, direction, request)
  }
}
