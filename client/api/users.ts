import { http, postListQuery } from './http.js'
import type { BookmarksReply, FollowAnswer, Page, ProfileEdit, User } from './types.js'

export async function apiGetUser(username: string): Promise<User> {
  const reply = await http<{ user: User }>(`/users/${encodeURIComponent(username)}`)
  return reply.user
}

export async function apiEditUser(userData: ProfileEdit): Promise<User> {
  const reply = await http<{ user: User }>('/users/edit', { method: 'POST', body: { userData } })
  return reply.user
}

/** A follow, or on a locked account a request to follow. */
export function apiFollowUser(userId: string): Promise<FollowAnswer> {
  return http<FollowAnswer>(`/users/follow/${encodeURIComponent(userId)}`, { method: 'POST' })
}

/** An unfollow, or the withdrawal of a request still waiting. */
export function apiUnfollowUser(userId: string): Promise<FollowAnswer> {
  return http<FollowAnswer>(`/users/unfollow/${encodeURIComponent(userId)}`, { method: 'POST' })
}

export async function apiGetSuggestions(limit: number): Promise<User[]> {
  const reply = await http<{ users: User[] }>('/users/suggestions', { query: { limit } })
  return reply.users
}

/** Stops suggesting someone to me: Mastodon's route, with my session token (DECISIONS §17). */
export async function apiDismissSuggestion(userId: string): Promise<void> {
  await http(`/v1/suggestions/${encodeURIComponent(userId)}`, { method: 'DELETE' })
}

export function apiGetBookmarks(page: Page = {}): Promise<BookmarksReply> {
  return http<BookmarksReply>('/users/bookmark', { query: postListQuery(page) })
}

export function apiAddBookmark(postId: string): Promise<BookmarksReply> {
  return http<BookmarksReply>(`/users/bookmark/${encodeURIComponent(postId)}`, { method: 'POST' })
}

export function apiRemoveBookmark(postId: string): Promise<BookmarksReply> {
  return http<BookmarksReply>(`/users/remove-bookmark/${encodeURIComponent(postId)}`, { method: 'POST' })
}
