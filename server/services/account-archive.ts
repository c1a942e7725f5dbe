import type { Visibility } from '../../common/audience.js'
import type { CommentRecord, PostRecord, UserSummaryRecord } from '../store/types.js'
import { visibilityOf } from './audience.js'

/**
 * The files of an account's archive (DECISIONS §9), shared by its export and its import: their names,
 * the shape of each record in them, and Mastodon's CSV of accounts.
 */
export const ARCHIVE_FILES = {
  account: 'account.json',
  posts: 'posts.json',
  comments: 'comments.json',
  following: 'following.csv',
  followers: 'followers.csv',
  bookmarks: 'bookmarks.json',
  likes: 'likes.json',
  blocks: 'blocks.csv',
  mutes: 'mutes.csv',
} as const

export const MEDIA_FOLDER = 'media/'

/** Mastodon's header of an account list; each line after it is an address. */
export const CSV_HEADER = 'Account address'

/** A post as posts.json holds it; `media` names its image's file in the archive, when it is an upload. */
export interface ArchivedPost {
  _id: string
  content: string
  mediaUrl: string
  mediaAlt?: string
  media?: string
  /** Who may read it (DECISIONS §12); an archive written before audiences has none: public. */
  visibility: Visibility
  createdAt: string
  updatedAt: string
  likeCount: number
  commentCount: number
}

/** Someone's post the account bookmarked or liked: enough to find it again, here or by a reader. */
export interface PostReference {
  postId: string
  username: string
  content: string
  createdAt: string
}

export function archivedPost(post: PostRecord, media: string | undefined): ArchivedPost {
  return {
    _id: post._id,
    content: post.content,
    mediaUrl: post.mediaUrl,
    ...(post.mediaAlt !== undefined ? { mediaAlt: post.mediaAlt } : {}),
    ...(media !== undefined ? { media } : {}),
    visibility: visibilityOf(post),
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    likeCount: post.likeCount,
    commentCount: post.commentCount,
  }
}

export function archivedComment(postId: string, comment: CommentRecord) {
  return { _id: comment._id, postId, text: comment.text, createdAt: comment.createdAt, updatedAt: comment.updatedAt }
}

export function postReference(post: PostRecord, author: UserSummaryRecord | undefined): PostReference {
  return { postId: post._id, username: author?.username ?? '', content: post.content, createdAt: post.createdAt }
}
