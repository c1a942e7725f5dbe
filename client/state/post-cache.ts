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

/** Keeps every cached post of one author in step with the author's current profile (DECISIONS §1). */
export function updateAuthor(author: { username: string; firstName: string; lastName: string; avatarURL: string }): void {
  for (const post of Object.values(postCache.byId)) {
    if (post.username === author.username) {
      post.firstName = author.firstName
      post.lastName = author.lastName
      post.avatarURL = author.avatarURL
    }
  }
}

export function reset(): void {
  postCache.byId = {}
}
