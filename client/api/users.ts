import { http, postListQuery } from './http.js'
import type { BookmarksReply, FollowReply, Page, User, UserEdit } from './types.js'

export async function apiGetUser(username: string): Promise<User> {
  const reply = await http<{ user: User }>(`/users/${encodeURIComponent(username)}`)
  return reply.user
}

export async function apiEditUser(userData: UserEdit): Promise<User> {
  const reply = await http<{ user: User }>('/users/edit', { method: 'POST', body: { userData } })
  return reply.user
}

export function apiFollowUser(userId: string): Promise<FollowReply> {
  return http<FollowReply>(`/users/follow/${encodeURIComponent(userId)}`, { method: 'POST' })
}

export function apiUnfollowUser(userId: string): Promise<FollowReply> {
  return http<FollowReply>(`/users/unfollow/${encodeURIComponent(userId)}`, { method: 'POST' })
}

export async function apiGetSuggestions(limit: number): Promise<User[]> {
  const reply = await http<{ users: User[] }>('/users/suggestions', { query: { limit } })
  return reply.users
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
