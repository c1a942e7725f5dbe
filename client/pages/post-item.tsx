import { memo, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { EditPostModal } from '../components/edit-post-modal.js'
import { Lightbox } from '../components/lightbox.js'
import { PostCard } from '../components/post-card.js'
import { fullName, likedBy, mediaAlt } from '../lib/model.js'
import { hasShareSheet, shareLink } from '../lib/share.js'
import { useNow } from '../lib/use-now.js'
import { paths } from '../paths.js'
import { closeComments, comments, loadComments } from '../state/comments.js'
import { postCache } from '../state/post-cache.js'
import {
  addComment,
  deleteComment,
  deletePost,
  editComment,
  editPost,
  toggleBookmark,
  toggleLike,
  uploadMedia,
} from '../state/posts.js'
import { session } from '../state/session.js'
import { showToast } from '../state/toasts.js'

type PostItemProps = { postId: string; detail?: boolean; eagerMedia?: boolean; onDeleted?: () => void }

/** What the reader is asked to confirm: deleting this post, or one of its comments. */
type Deleting = { kind: 'post' } | { kind: 'comment'; commentId: string } | null

/** The post's link, to the phone's share sheet or else to the clipboard ('Link successfully copied'). */
async function sharePost(post: { id: string; firstName: string; lastName: string }): Promise<void> {
  const url = new URL(paths.postDetail.href(post.id), window.location.origin).href
  try {
    const outcome = await shareLink({ url, title: `${fullName(post)} on Chirp` })
    if (outcome === 'copied') showToast('Link successfully copied', 'success')
  } catch {
    showToast('Could not copy the link', 'error')
  }
}

/**
 * A post card wired to the state: reads one cached post, and turns clicks into actions. It draws again
 * only when its own post, the session or the clock changes, not each time its list draws a few more cards.
 */
export const PostItem = memo(function PostItem({
  postId,
  detail = false,
  eagerMedia = false,
  onDeleted,
}: PostItemProps) {
  const post = useSnapshot(postCache).byId[postId]
  const { username, user } = useSnapshot(session)
  const read = useSnapshot(comments).byPost[postId]
  const [showComments, setShowComments] = useState(detail)
  const [viewing, setViewing] = useState(false)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState<Deleting>(null)
  const now = useNow()
  const [location, navigate] = useLocation()
  // Lists carry no comments (compact posts): they are read when opened, and forgotten when closed.
  useEffect(() => {
    if (!showComments) return
    void loadComments(postId)
    return () => closeComments(postId)
  }, [showComments, postId])
  if (!post) return null
  // A visitor without an account (PUBLIC_READ) reads; each action asks them to join first.
  const me = username ?? ''
  const join = () => navigate(paths.signup.href(location))
  const signedIn = <A extends unknown[], R>(act: (...args: A) => R, instead: R) =>
    username
      ? act
      : () => {
          join()
          return instead
        }
  // Until some are read (or if reading failed), the post's own show: a whole post carries its newest.
  const thread = read && {
    comments: read.items.length > 0 || (read.loaded && !read.error) ? read.items : post.comments,
    loading: read.loading,
    error: read.error,
    more: read.loaded && !read.done,
    onMore: () => void loadComments(postId, true),
  }

  const confirmDelete = async (target: NonNullable<Deleting>) => {
    setDeleting(null)
    if (target.kind === 'post') {
      if (await deletePost(post._id)) {
        showToast('Your post was deleted', 'success')
        onDeleted?.()
      }
    } else if (await deleteComment(post._id, target.commentId)) {
      showToast('Your comment was deleted', 'success')
    }
  }

  return (
    <>
      <PostCard
        post={post}
        variant={detail ? 'detail' : 'feed'}
        eagerMedia={eagerMedia || detail}
        me={me}
        now={now}
        liked={likedBy(post, me)}
        bookmarked={user?.bookmarks.includes(post._id) ?? false}
        commentsOpen={showComments}
        thread={showComments ? thread : undefined}
        onToggleComments={() => setShowComments(!showComments)}
        onToggleLike={signedIn(() => void toggleLike(post._id), undefined)}
        shareSheet={hasShareSheet()}
        onShare={() => void sharePost(post)}
        onToggleBookmark={signedIn(() => void toggleBookmark(post._id), undefined)}
        onEdit={() => setEditing(true)}
        onOpenMedia={() => setViewing(true)}
        onDelete={() => setDeleting({ kind: 'post' })}
        comments={{
          onAdd: signedIn((text: string) => addComment(post._id, text), Promise.resolve(false)),
          onEdit: (commentId, text) => editComment(post._id, commentId, text),
          onDelete: (commentId) => setDeleting({ kind: 'comment', commentId }),
        }}
      />
      {viewing && <Lightbox src={post.mediaUrl} alt={mediaAlt(post)} onClose={() => setViewing(false)} />}
      {deleting && (
        <ConfirmDialog
          title={deleting.kind === 'post' ? 'Delete post?' : 'Delete comment?'}
          text={
            deleting.kind === 'post'
              ? "This can't be undone. The post and its comments will be removed from your profile and everyone's timelines."
              : "This can't be undone. The comment will be removed from the post."
          }
          confirmLabel="Delete"
          onConfirm={() => void confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
      {editing && (
        <EditPostModal
          initial={{ content: post.content, mediaUrl: post.mediaUrl, mediaAlt: post.mediaAlt ?? '' }}
          onSubmit={(draft) => editPost(post._id, draft)}
          onUpload={uploadMedia}
          onFileError={(message) => showToast(message, 'error')}
          onClose={() => setEditing(false)}
        />
      )}
    </>
  )
})
