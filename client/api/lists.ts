import { http, postListQuery } from './http.js'
import type { FeedReply, Page } from './types.js'

/** Who sees replies in a list's timeline: to people I follow, to the list's people, or nobody's. */
export type RepliesPolicy = 'followed' | 'list' | 'none'

/** A list of mine, as the Mastodon routes answer it. */
export type PeopleList = { id: string; title: string; replies_policy: RepliesPolicy; exclusive: boolean }

/** A list as the form sends it. */
export type PeopleListDraft = { title: string; replies_policy: RepliesPolicy; exclusive: boolean }

/** Someone on a list, as Mastodon's Account entity names them (the id is Chirp's user id). */
export type ListMember = { id: string; username: string; acct: string; display_name: string; avatar: string }

/** Chirp's client uses the Mastodon routes for lists, with its session token (DECISIONS §17). */
export function apiPeopleLists(): Promise<PeopleList[]> {
  return http<PeopleList[]>('/v1/lists')
}

export function apiCreatePeopleList(draft: PeopleListDraft): Promise<PeopleList> {
  return http<PeopleList>('/v1/lists', { method: 'POST', body: draft })
}

export function apiUpdatePeopleList(id: string, draft: PeopleListDraft): Promise<PeopleList> {
  return http<PeopleList>(`/v1/lists/${encodeURIComponent(id)}`, { method: 'PUT', body: draft })
}

export async function apiDeletePeopleList(id: string): Promise<void> {
  await http(`/v1/lists/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

export function apiListMembers(id: string): Promise<ListMember[]> {
  return http<ListMember[]>(`/v1/lists/${encodeURIComponent(id)}/accounts`)
}

export async function apiAddListMember(id: string, userId: string): Promise<void> {
  await http(`/v1/lists/${encodeURIComponent(id)}/accounts`, { method: 'POST', body: { account_ids: [userId] } })
}

export async function apiRemoveListMember(id: string, userId: string): Promise<void> {
  await http(`/v1/lists/${encodeURIComponent(id)}/accounts`, { method: 'DELETE', body: { account_ids: [userId] } })
}

/** A list's timeline as Chirp's posts: `GET /api/feed?list=`. */
export function apiListFeed(id: string, page: Page): Promise<FeedReply> {
  return http<FeedReply>('/feed', { query: { list: id, ...postListQuery(page) } })
}
