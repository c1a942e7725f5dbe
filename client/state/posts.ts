import { snapshot } from 'valtio'
import { apiAddComment, apiDeleteComment, apiEditComment } from '../api/comments.js'
import { apiUploadMedia } from '../api/media.js'
import { apiCreatePost, apiDeletePost, apiDislikePost, apiEditPost, apiLikePost } from '../api/posts.js'
import type { Post, PostData, UserSummary } from '../api/types.js'
import { apiAddBookmark, apiRemoveBookmark } from '../api/users.js'
import { likedBy } from '../lib/model.js'
import { dropComment, takeComments } from './comments.js'
import { dropPost, insertPost, setBookmarkList } from './lists.js'
import { cachePosts, likeCachedPost, postCache, uncachePost } from './post-cache.js'
import { markBookmarked, session, setBookmarks } from './session.js'
import { showError } from './toasts.js'

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

export type PostDraft = { content: string; mediaUrl: string; mediaAlt?: string }

/**
 * The description goes only with an image: the server refuses one on a post without.
 * With an image it always goes, so an empty one clears what an edited post had.
 */
function postData(draft: PostDraft): PostData {
  const data: PostData = { content: draft.content, mediaUrl: draft.mediaUrl, type: draft.mediaUrl ? 'image' : '' }
  return draft.mediaUrl ? { ...data, mediaAlt: draft.mediaAlt ?? '' } : data
}

export function createPost(draft: PostDraft): Promise<boolean> {
  return attempt('send the post', async () => {
    const post = await apiCreatePost(postData(draft))
    applyPost(post)
    insertPost(post, { inHome: true })
  })
}

export function editPost(postId: string, draft: PostDraft): Promise<boolean> {
  return attempt('save the post', async () => applyPost(await apiEditPost(postId, postData(draft))))
}

export function deletePost(postId: string): Promise<boolean> {
  return attempt('delete the post', async () => {
    await apiDeletePost(postId)
    removePost(postId)
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
      avatarURL: me.avatarURL,
    }
  )
}

/** Likes or unlikes at once, then confirms with the server; on failure the old likes come back. */
export async function toggleLike(postId: string): Promise<void> {
  const post = postCache.byId[postId]
  const me = meAsSummary()
  if (!post || !me) return
  // A plain copy: proxies cannot be cloned, and the rollback must not share objects with the post.
  const before = structuredClone(snapshot(post.likes)) as Post['likes']
  const liking = !likedBy(post, session.username ?? '')
  const likeCount = Math.max(0, post.likes.likeCount + (liking ? 1 : -1))
  likeCachedPost({ postId, user: me, liked: liking, likeCount })
  try {
    applyPost(await (liking ? apiLikePost(postId) : apiDislikePost(postId)))
  } catch (error) {
    const current = postCache.byId[postId]
    if (current) current.likes = before
    showError(error, () => void toggleLike(postId), liking ? 'like the post' : 'unlike the post')
  }
}

/** Bookmarks or un-bookmarks at once; the server's list then replaces ours, or the old one returns. */
export async function toggleBookmark(postId: string): Promise<void> {
  if (!session.user) return
  const before = [...session.user.bookmarks]
  const adding = !before.includes(postId)
  markBookmarked(postId, adding)
  try {
    const reply = await (adding ? apiAddBookmark(postId) : apiRemoveBookmark(postId))
    cachePosts(reply.bookmarks)
    setBookmarks(reply.bookmarks.map((p) => p._id))
    setBookmarkList(reply.bookmarks)
  } catch (error) {
    setBookmarks(before)
    showError(error, () => void toggleBookmark(postId), adding ? 'bookmark the post' : 'remove the bookmark')
  }
}

/** The answer to a comment write: the post, and its newest comments where the tab shows them (my new one among them). */
function applyCommentWrite(postId: string, post: Post): void {
  applyPost(post)
  takeComments(postId, post.comments)
}

export function addComment(postId: string, text: string): Promise<boolean> {
  return attempt('send the comment', async () => applyCommentWrite(postId, await apiAddComment(postId, text)))
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
