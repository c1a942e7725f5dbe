import { http } from './http.js'

/** Where a keyword filter applies (docs/mastodon-api.md, "Keyword filters and lists"). */
export const FILTER_CONTEXTS = ['home', 'notifications', 'public', 'account', 'thread'] as const
export type FilterContext = (typeof FILTER_CONTEXTS)[number]

type FilterKeyword = { id: string; keyword: string; whole_word: boolean }

/** A keyword filter of mine, as the Mastodon routes answer it. */
export type KeywordFilter = {
  id: string
  title: string
  context: string[]
  expires_at: string | null
  filter_action: string
  keywords: FilterKeyword[]
}

/** A filter as the form sends it: its keywords by `keywords_attributes` (`id` to keep, `_destroy` to drop). */
export type FilterDraft = {
  title: string
  context: FilterContext[]
  filter_action: 'warn' | 'hide'
  /** Seconds from now; null: never. Left out on an edit that keeps the expiry. */
  expires_in?: number | null
  keywords_attributes: { id?: string; keyword: string; whole_word: boolean; _destroy?: boolean }[]
}

/** Chirp's client uses the Mastodon routes for filters, with its session token (DECISIONS §17). */
export function apiFilters(): Promise<KeywordFilter[]> {
  return http<KeywordFilter[]>('/v2/filters')
}

export function apiCreateFilter(draft: FilterDraft): Promise<KeywordFilter> {
  return http<KeywordFilter>('/v2/filters', { method: 'POST', body: draft })
}

export function apiUpdateFilter(id: string, draft: FilterDraft): Promise<KeywordFilter> {
  return http<KeywordFilter>(`/v2/filters/${encodeURIComponent(id)}`, { method: 'PUT', body: draft })
}

export async function apiDeleteFilter(id: string): Promise<void> {
  await http(`/v2/filters/${encodeURIComponent(id)}`, { method: 'DELETE' })
}
