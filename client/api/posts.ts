import { http, postListQuery, RETURN_MINIMAL } from './http.js'
import type { PostVersionView } from '../lib/model.js'
import type { FeedReply, FeedSort, NewPostData, Page, Post, PostData, PostsReply } from './types.js'

const id = encodeURIComponent

export function apiGetFeed(sort: FeedSort, page: Page): Promise<FeedReply> {
  return http<FeedReply>('/feed', { query: { sort, ...postListQuery(page) } })
}

export function apiGetPosts(page: Page): Promise<PostsReply> {
  return http<PostsReply>('/posts', { query: postListQuery(page) })
}

/** A user's posts; `media`: only those with an image (the profile's Media tab). */
export function apiGetUserPosts(username: string, page: Page, media = false): Promise<PostsReply> {
  const query = { ...postListQuery(page), ...(media ? { filter: 'media' } : {}) }
  return http<PostsReply>(`/posts/user/${id(username)}`, { query })
}

/** The posts a user likes, the most recent like first. */
export function apiGetUserLikes(username: string, page: Page): Promise<PostsReply> {
  return http<PostsReply>(`/users/${id(username)}/likes`, { query: postListQuery(page) })
}

export async function apiGetPost(postId: string): Promise<Post> {
  const reply = await http<{ post: Post }>(`/posts/${id(postId)}`)
  return reply.post
}

/** A post or comment write: with return=minimal the server answers with the changed post only. */
export async function writePost(path: string, body?: Record<string, unknown>): Promise<Post> {
  const reply = await http<{ post: Post }>(path, { method: 'POST', body, headers: RETURN_MINIMAL })
  return reply.post
}

export function apiCreatePost(postData: NewPostData): Promise<Post> {
  return writePost('/posts', { postData })
}

export function apiEditPost(postId: string, postData: PostData): Promise<Post> {
  return writePost(`/posts/edit/${id(postId)}`, { postData })
}

/** A vote in the post's poll: the post as the voter now sees it, counts and all. */
export async function apiVotePoll(postId: string, choice: number): Promise<Post> {
  const reply = await http<{ post: Post }>(`/polls/${id(postId)}/vote`, { method: 'POST', body: { choice } })
  return reply.post
}

export async function apiDeletePost(postId: string): Promise<void> {
  await http(`/posts/${id(postId)}`, { method: 'DELETE', headers: RETURN_MINIMAL })
}

export function apiLikePost(postId: string): Promise<Post> {
  return writePost(`/posts/like/${id(postId)}`)
}

export function apiDislikePost(postId: string): Promise<Post> {
  return writePost(`/posts/dislike/${id(postId)}`)
}

export function apiRepostPost(postId: string): Promise<Post> {
  return writePost(`/posts/repost/${id(postId)}`)
}

export function apiUnrepostPost(postId: string): Promise<Post> {
  return writePost(`/posts/unrepost/${id(postId)}`)
}

export function apiPinPost(postId: string): Promise<Post> {
  return writePost(`/posts/pin/${id(postId)}`)
}

export function apiUnpinPost(postId: string): Promise<Post> {
  return writePost(`/posts/unpin/${id(postId)}`)
}

/** Every version of a post, the first first and the current one last. */
export async function apiPostHistory(postId: string): Promise<PostVersionView[]> {
  const reply = await http<{ versions: PostVersionView[] }>(`/posts/${id(postId)}/history`)
  return reply.versions
}
