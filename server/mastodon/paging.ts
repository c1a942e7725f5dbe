import { Type, type Static } from '@sinclair/typebox'

/**
 * Mastodon's paging of lists (DECISIONS §13): ids that sort by time, `max_id` for older items, `since_id`
 * for newer ones from the newest down, `min_id` for newer ones from just above it up, and `limit`; the
 * answer's `Link` header names the next (older) and previous (newer) pages.
 */
export const PageQuerySchema = Type.Object({
  max_id: Type.Optional(Type.String({ maxLength: 200 })),
  since_id: Type.Optional(Type.String({ maxLength: 200 })),
  min_id: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
})
export type PageQuery = Static<typeof PageQuerySchema>

/** A page asked for, its limit kept between 1 and `max` (Mastodon clamps rather than refuses). */
export interface PageWindow {
  maxId?: string
  sinceId?: string
  minId?: string
  limit: number
}

export function pageWindow(query: PageQuery, { fallback = 20, max = 40 } = {}): PageWindow {
  return {
    ...(query.max_id ? { maxId: query.max_id } : {}),
    ...(query.since_id ? { sinceId: query.since_id } : {}),
    ...(query.min_id ? { minId: query.min_id } : {}),
    limit: Math.min(Math.max(query.limit ?? fallback, 1), max),
  }
}

/**
 * The Link header of a page whose items are listed newest first: `next` continues below the last
 * item, `prev` above the first; none for an empty page. Every other parameter of the request is kept.
 */
export function linkHeader(url: URL, items: readonly { id: string }[]): string | undefined {
  const first = items[0]
  const last = items.at(-1)
  if (!first || !last) return undefined
  const to = (set: Record<string, string>) => {
    const target = new URL(url)
    for (const name of ['max_id', 'since_id', 'min_id']) target.searchParams.delete(name)
    for (const [name, value] of Object.entries(set)) target.searchParams.set(name, value)
    return target.href
  }
  return `<${to({ max_id: last.id })}>; rel="next", <${to({ min_id: first.id })}>; rel="prev"`
}

/**
 * The Link header of a list Chirp pages by its own cursors (bookmarks, favourites, who favourited): its
 * `max_id` carries the cursor of the next page, which the list alone reads; none at the end.
 */
export function cursorLinkHeader(url: URL, nextCursor: string | null | undefined): string | undefined {
  if (!nextCursor) return undefined
  const target = new URL(url)
  for (const name of ['max_id', 'since_id', 'min_id']) target.searchParams.delete(name)
  target.searchParams.set('max_id', nextCursor)
  return `<${target.href}>; rel="next"`
}
