import { http, pageQuery } from './http.js'
import { writePost } from './posts.js'
import type { CommentsReply, Page, Post } from './types.js'

const id = encodeURIComponent

/** A page of a post's comments, in the order they were written. */
export function apiGetComments(postId: string, page: Page): Promise<CommentsReply> {
  return http<CommentsReply>(`/comments/${id(postId)}`, { query: pageQuery(page) })
}

/** A comment, or with `replyTo` a reply to one of the post's comments. */
export function apiAddComment(postId: string, text: string, replyTo?: string): Promise<Post> {
  return writePost(`/comments/add/${id(postId)}`, { commentData: replyTo ? { text, replyTo } : { text } })
}

export function apiEditComment(postId: string, commentId: string, text: string): Promise<Post> {
  return writePost(`/comments/edit/${id(postId)}/${id(commentId)}`, { commentData: { text } })
}

export function apiDeleteComment(postId: string, commentId: string): Promise<Post> {
  return writePost(`/comments/delete/${id(postId)}/${id(commentId)}`)
}
