import type { Page, PageRequest } from './types.js'

/**
 * A page without the records of the people `request.hide` names (nor, with `wanted`, those it refuses),
 * still as full as asked: reads go on
 * from where the last one stopped until the page is full or the list ends, so the cursor handed back is
 * that of the last record read, kept or not, and the next page starts right after it. Reads here are
 * from memory, so going on costs no round trip.
 */
export function fullPage<T>(
  request: PageRequest,
  read: (page: PageRequest) => Page<T>,
  personOf: (record: T) => string,
  wanted?: (record: T) => boolean,
): Page<T> {
  const { hide, ...page } = request
  if ((!hide || hide.length === 0) && !wanted) return read(page)
  const hidden = new Set(hide)
  const keep = (record: T) => !hidden.has(personOf(record)) && (!wanted || wanted(record))
  if (page.limit === undefined) {
    const whole = read(page)
    return { items: whole.items.filter(keep), nextCursor: whole.nextCursor }
  }
  const items: T[] = []
  let cursor = page.cursor
  for (;;) {
    const next = read({ limit: page.limit - items.length, ...(cursor !== undefined ? { cursor } : {}) })
    items.push(...next.items.filter(keep))
    if (next.nextCursor === null) return { items, nextCursor: null }
    cursor = next.nextCursor
    if (items.length >= page.limit)
      return { items, nextCursor: keptAfter(read, keep, cursor, page.limit) ? cursor : null }
  }
}

/**
 * Whether a record that is kept follows `cursor`. PostgreSQL leaves hidden records out inside its query
 * and so hands back a cursor only when another kept record follows; a page followed by hidden ones alone
 * is the last one here too, not a cursor to an empty page.
 */
function keptAfter<T>(read: (page: PageRequest) => Page<T>, keep: (record: T) => boolean, from: string, limit: number) {
  let cursor = from
  for (;;) {
    const next = read({ limit, cursor })
    if (next.items.some(keep)) return true
    if (next.nextCursor === null) return false
    cursor = next.nextCursor
  }
}
