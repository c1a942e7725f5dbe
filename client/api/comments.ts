import { writePost } from './posts.js'
import type { Post } from './types.js'

const id = encodeURIComponent

export function apiAddComment(postId: string, text: string): Promise<Post> {
  return writePost(`/comments/add/${id(postId)}`, { commentData: { text } })
}

export function apiEditComment(postId: string, commentId: string, text: string): Promise<Post> {
  return writePost(`/comments/edit/${id(postId)}/${id(commentId)}`, { commentData: { text } })
}

export function apiDeleteComment(postId: string, commentId: string): Promise<Post> {
  return writePost(`/comments/delete/${id(postId)}/${id(commentId)}`)
}
