import { http, pageQuery, postListQuery } from './http.js'
import type { Page, PostsReply, TrendingTag, UsersReply } from './types.js'

/** Posts holding every word of `q` (`#tag` and `@name` too), newest first. */
export function apiSearchPosts(q: string, page: Page): Promise<PostsReply> {
  return http<PostsReply>('/search', { query: { q, type: 'posts', ...postListQuery(page) } })
}

/** People whose username or names begin with the words of `q`. */
export function apiSearchUsers(q: string, page: Page): Promise<UsersReply> {
  return http<UsersReply>('/search', { query: { q, type: 'users', ...pageQuery(page) } })
}

export function apiGetTagPosts(tag: string, page: Page): Promise<PostsReply> {
  return http<PostsReply>(`/posts/tag/${encodeURIComponent(tag)}`, { query: postListQuery(page) })
}

export async function apiGetTrendingTags(limit: number): Promise<TrendingTag[]> {
  const reply = await http<{ tags: TrendingTag[] }>('/tags/trending', { query: { limit } })
  return reply.tags
}
