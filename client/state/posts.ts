import { apiAddComment, apiDeleteComment, apiEditComment } from '../api/comments.js'
import { apiUploadMedia } from '../api/media.js'
import {
  apiCreatePost,
  apiDeletePost,
  apiDislikePost,
  apiEditPost,
  apiGetPost,
  apiLikePost,
  apiVotePoll,
} from '../api/posts.js'
import type { BookmarksReply, Post, PostData, UserSummary, Visibility } from '../api/types.js'
import { apiAddBookmark, apiRemoveBookmark } from '../api/users.js'
import { likedBy } from '../lib/model.js'
import { dropComment, takeComments } from './comments.js'
import { dropPost, insertPost, setBookmarkList } from './lists.js'
import { cachePosts, likeCachedPost, postCache, uncachePost } from './post-cache.js'
import { markBookmarked, session, setBookmarks } from './session.js'
import { showError, showToast } from './toasts.js'
import { apiSchedulePost } from '../api/scheduled.js'
import { formatFullDate } from '../lib/relative-time.js'
import { toggleQueue } from './toggle-queue.js'
import { countOwnPost } from './users.js'

/** Takes the server's current version of a post. */
export function applyPost(post: Post): void {
  cachePosts([post])
}

/** Forgets a post everywhere; also what a live `post.deleted` event applies. */
export function removePost(postId: string): void {
  dropPost(postId)
  uncachePost(postId)
}

/**
 * Runs a write; its failure is shown with the server's message, naming the `action` ("send the post")
 * when a rate limit held it back. Resolves whether it succeeded.
 */
async function attempt(action: string, write: () => Promise<void>): Promise<boolean> {
  try {
    await write()
    return true
  } catch (error) {
    showError(error, undefined, action)
    return false
  }
}

export type PostDraft = {
  content: string
  /** Up to 4 images, each with its description ('' for none). */
  media: readonly { url: string; alt: string }[]
  /** The content warning; '' for none (on an edit, it clears one). */
  spoilerText?: string
  /** On a new post only. */
  poll?: { options: string[]; days: number } | undefined
  /** On a new post only: who may read it; without it, the author's default audience. */
  visibility?: Visibility | undefined
  /** On a new post only: when to publish it (ISO); without it, now. */
  scheduledAt?: string | undefined
}

/**
 * The images always go, each with its description, so an edit replaces every image and an empty
 * description clears what an edited post had.
 */
export function postData(draft: Pick<PostDraft, 'content' | 'media'> & Partial<PostDraft>): PostData {
  return {
    content: draft.content,
    media: draft.media.map(({ url, alt }) => ({ url, alt })),
    ...(draft.spoilerText !== undefined ? { spoilerText: draft.spoilerText } : {}),
    ...(draft.poll ? { poll: draft.poll } : {}),
    ...(draft.visibility ? { visibility: draft.visibility } : {}),
  }
}

export function createPost(draft: PostDraft): Promise<boolean> {
  return attempt('send the post', async () => {
    if (draft.scheduledAt) {
      const scheduled = await apiSchedulePost(postData(draft), draft.scheduledAt)
      showToast(`Your post is scheduled for ${formatFullDate(scheduled.scheduledAt)}`, 'success')
      return
    }
    const post = await apiCreatePost(postData(draft))
    applyPost(post)
    insertPost(post, { inHome: true })
    countOwnPost(1)
  })
}

export function editPost(postId: string, draft: PostDraft): Promise<boolean> {
  return attempt('save the post', async () => applyPost(await apiEditPost(postId, postData(draft))))
}

/** A vote in the post's poll; the answer shows the counts the voter may now see. */
export function votePoll(postId: string, choice: number): Promise<boolean> {
  return attempt('send the vote', async () => applyPost(await apiVotePoll(postId, choice)))
}

export function deletePost(postId: string): Promise<boolean> {
  return attempt('delete the post', async () => {
    await apiDeletePost(postId)
    removePost(postId)
    countOwnPost(-1)
    markBookmarked(postId, false)
  })
}

function meAsSummary(): UserSummary | null {
  const me = session.user
  return (
    me && {
      _id: me._id,
      username: me.username,
      firstName: me.firstName,
      lastName: me.lastName,
      ...(me.displayName ? { displayName: me.displayName } : {}),
      avatarURL: me.avatarURL,
    }
  )
}

/** Shows the post liked by me or not, with the count moved by one; nothing when it already shows that. */
function showLiked(postId: string, liked: boolean): void {
  const post = postCache.byId[postId]
  const me = meAsSummary()
  if (!post || !me || likedBy(post, me.username) === liked) return
  const likeCount = Math.max(0, post.likes.likeCount + (liked ? 1 : -1))
  likeCachedPost({ postId, user: me, liked, likeCount })
}

/** Forgets every like and bookmark intent still queued: the next person's clicks start afresh. */
export function reset(): void {
  likeWrites.forget()
  bookmarkWrites.forget()
}

/** Reads a post again, for the counts a write's refusal did not carry. */
async function refreshPost(postId: string): Promise<void> {
  try {
    applyPost(await apiGetPost(postId))
  } catch {
    // The count stays as shown until the next read or live event; the like state is already right.
  }
}

const likeWrites = toggleQueue<Post>({
  send: (postId, like) => (like ? apiLikePost(postId) : apiDislikePost(postId)),
  settle: (_postId, post) => applyPost(post),
  restore(postId, liked, how, error) {
    showLiked(postId, liked)
    // The write that failed asked for the opposite of what the server holds.
    if (how === 'failed') showError(error, () => void toggleLike(postId), liked ? 'unlike the post' : 'like the post')
    if (how === 'already') void refreshPost(postId)
  },
  already: { on: ['already_liked'], off: ['like_below_zero', 'already_disliked'] },
})

/** Likes or unlikes at once; the server is told the latest intent, and the button ends where the server is. */
export async function toggleLike(postId: string): Promise<void> {
  const post = postCache.byId[postId]
  if (!post || !session.user) return
  const liked = likedBy(post, session.user.username)
  showLiked(postId, !liked)
  await likeWrites.toggle(postId, !liked, liked)
}

const bookmarkWrites = toggleQueue<BookmarksReply>({
  send: (postId, add) => (add ? apiAddBookmark(postId) : apiRemoveBookmark(postId)),
  settle(_postId, reply) {
    cachePosts(reply.bookmarks)
    setBookmarks(reply.bookmarks.map((p) => p._id))
    setBookmarkList(reply.bookmarks)
  },
  restore(postId, bookmarked, how, error) {
    markBookmarked(postId, bookmarked)
    if (how === 'failed')
      showError(error, () => void toggleBookmark(postId), bookmarked ? 'remove the bookmark' : 'bookmark the post')
  },
  already: { on: ['already_bookmarked'], off: ['not_bookmarked'] },
})

/** Bookmarks or un-bookmarks at once; the server's list then replaces ours once the latest intent is made. */
export async function toggleBookmark(postId: string): Promise<void> {
  if (!session.user) return
  const bookmarked = session.user.bookmarks.includes(postId)
  markBookmarked(postId, !bookmarked)
  await bookmarkWrites.toggle(postId, !bookmarked, bookmarked)
}

/** The answer to a comment write: the post, and its newest comments where the tab shows them (my new one among them). */
function applyCommentWrite(postId: string, post: Post): void {
  applyPost(post)
  takeComments(postId, post.comments)
}

export function addComment(postId: string, text: string, replyTo?: string): Promise<boolean> {
  return attempt('send the comment', async () => applyCommentWrite(postId, await apiAddComment(postId, text, replyTo)))
}

export function editComment(postId: string, commentId: string, text: string): Promise<boolean> {
  return attempt('save the comment', async () =>
    applyCommentWrite(postId, await apiEditComment(postId, commentId, text)),
  )
}

export function deleteComment(postId: string, commentId: string): Promise<boolean> {
  return attempt('delete the comment', async () => {
    applyPost(await apiDeleteComment(postId, commentId))
    // The answer's count already leaves it out.
    dropComment({ postId, commentId }, true)
  })
}

/** Uploads an image for a post; null (and a toast) when the server refuses it. */
export async function uploadMedia(file: File): Promise<string | null> {
  try {
    return await apiUploadMedia(file)
  } catch (error) {
    showError(error, undefined, 'upload the image')
    return null
  }
}
