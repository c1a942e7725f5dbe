import { proxy } from 'valtio'
import type { Post } from '../api/types.js'

/**
 * Every post the client holds, by _id. Lists hold only ids, so a post changed once
 * (a like, an edit, a live event) changes on every screen that shows it.
 */
export const postCache = proxy({ byId: {} as Record<string, Post> })

export function cachePosts(posts: readonly Post[]): void {
  for (const post of posts) postCache.byId[post._id] = post
}

export function uncachePost(postId: string): void {
  delete postCache.byId[postId]
}

/** Keeps every cached post and comment of one author in step with the author's current profile (DECISIONS §1). */
export function updateAuthor(author: { username: string; firstName: string; lastName: string; avatarURL: string }): void {
  const update = (record: { username: string; firstName: string; lastName: string; avatarURL: string }) => {
    if (record.username !== author.username) return
    record.firstName = author.firstName
    record.lastName = author.lastName
    record.avatarURL = author.avatarURL
  }
  for (const post of Object.values(postCache.byId)) {
    update(post)
    post.comments.forEach(update)
  }
}

export function reset(): void {
  postCache.byId = {}
}
