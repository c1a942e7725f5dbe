import { memo, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { RestrictDialog } from '../components/restrict-dialog.js'
import { EditPostModal } from '../components/edit-post-modal.js'
import { EditHistoryDialog } from '../components/edit-history-dialog.js'
import { apiPostHistory } from '../api/posts.js'
import { errorMessage } from '../api/http.js'
import { FilteredPost } from '../components/filtered-post.js'
import { Lightbox } from '../components/lightbox.js'
import { PostCard } from '../components/post-card.js'
import { QuoteModal } from '../components/quote-modal.js'
import { ReportDialog } from '../components/report-dialog.js'
import { displayNameOf, imagesOf, likedBy, type PostVersionView, type UserSummaryView } from '../lib/model.js'
import type { Restriction } from '../lib/restrict-text.js'
import { hasShareSheet, shareLink } from '../lib/share.js'
import { paths } from '../paths.js'
import { closeComments, comments, loadComments } from '../state/comments.js'
import {
  addComment,
  deleteComment,
  deletePost,
  editComment,
  editPost,
  toggleBookmark,
  toggleLike,
  votePoll,
  uploadMedia,
} from '../state/posts.js'
import { restrictPerson } from '../state/relations.js'
import { sendReport, type ReportTarget } from '../state/reports.js'
import { createQuote, togglePin, toggleRepost } from '../state/reposts.js'
import { session } from '../state/session.js'
import { showToast } from '../state/toasts.js'
import { useCachedPost } from './use-cached-post.js'

type PostItemProps = {
  postId: string
  detail?: boolean
  eagerMedia?: boolean
  onDeleted?: () => void
  /** In the home feed: who reposted it there. */
  repostedBy?: UserSummaryView | undefined
  /** On its author's profile, where a pinned post says so. */
  showPinned?: boolean
}

/** What the reader is asked to confirm deleting: this post or one of its comments. */
type Deleting = { kind: 'post' } | { kind: 'comment'; commentId: string } | null
/** Whom the reader is asked to confirm muting or blocking: the post's author or a commenter. */
type Restricting = { kind: Restriction; username: string } | null

/** The post's link, to the phone's share sheet or else to the clipboard ('Link successfully copied'). */
async function sharePost(post: { id: string; firstName: string; lastName: string }): Promise<void> {
  const url = new URL(paths.postDetail.href(post.id), window.location.origin).href
  try {
    const outcome = await shareLink({ url, title: `${displayNameOf(post)} on Chirp` })
    if (outcome === 'copied') showToast('Link successfully copied', 'success')
  } catch {
    showToast('Could not copy the link', 'error')
  }
}

/** "Your comment was deleted", or, when the post's owner deleted someone else's, whose it was. */
function commentDeletedText(author: string | undefined, me: string): string {
  if (author === me) return 'Your comment was deleted'
  return author ? `@${author}'s comment was deleted` : 'The comment was deleted'
}

/** What the confirmation says will happen. */
function confirmation(target: NonNullable<Deleting>): { title: string; text: string; confirmLabel: string } {
  if (target.kind === 'post')
    return {
      title: 'Delete post?',
      text: "This can't be undone. The post and its comments will be removed from your profile and everyone's timelines.",
      confirmLabel: 'Delete',
    }
  return {
    title: 'Delete comment?',
    text: "This can't be undone. The comment will be removed from the post.",
    confirmLabel: 'Delete',
  }
}

/**
 * A post card wired to the state: reads one cached post, and turns clicks into actions. It draws again
 * only when its own post or the session changes, not each time its list draws a few more cards nor at
 * each tick of the clock (the times on the card follow it themselves).
 */
export const PostItem = memo(function PostItem({
  postId,
  detail = false,
  eagerMedia = false,
  onDeleted,
  repostedBy,
  showPinned = false,
}: PostItemProps) {
  const post = useCachedPost(postId)
  const { username, user } = useSnapshot(session)
  const read = useSnapshot(comments).byPost[postId]
  const [showComments, setShowComments] = useState(detail)
  /** The image open in the viewer, by its place among the post's. */
  const [viewing, setViewing] = useState<number | null>(null)
  const [editing, setEditing] = useState(false)
  /** The edit history shown, with its versions once loaded. */
  const [history, setHistory] = useState<{ versions: PostVersionView[] | undefined } | null>(null)
  const [quoting, setQuoting] = useState(false)
  const [deleting, setDeleting] = useState<Deleting>(null)
  const [restricting, setRestricting] = useState<Restricting>(null)
  const [reporting, setReporting] = useState<ReportTarget | null>(null)
  /** Shown in spite of a keyword filter of the reader's: kept while the list lives. */
  const [shownAnyway, setShownAnyway] = useState(false)
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
  async function showHistory() {
    setHistory({ versions: undefined })
    try {
      setHistory({ versions: await apiPostHistory(postId) })
    } catch (error) {
      setHistory(null)
      showToast(errorMessage(error), 'error')
    }
  }
  // Until some are read (or if reading failed), the post's own show: a whole post carries its newest.
  const thread = read && {
    comments: read.items.length > 0 || (read.loaded && !read.error) ? read.items : post.comments,
    loading: read.loading,
    error: read.error,
    retryable: read.retryable,
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
    } else {
      // The post's owner may delete anyone's comment: the toast says whose went.
      const author = (thread ? thread.comments : post.comments).find((c) => c._id === target.commentId)?.username
      if (await deleteComment(post._id, target.commentId)) showToast(commentDeletedText(author, me), 'success')
    }
  }

  return (
    <>
      <FilteredPost
        titles={(post.filtered ?? []).map((result) => result.filter.title)}
        shown={shownAnyway}
        onShow={() => setShownAnyway(true)}
        author={displayNameOf(post)}
      >
        <PostCard
          post={post}
          variant={detail ? 'detail' : 'feed'}
          eagerMedia={eagerMedia || detail}
          me={me}
          followsAuthor={user?.following.some((person) => person.username === post.username) ?? false}
          liked={likedBy(post, me)}
          bookmarked={user?.bookmarks.includes(post._id) ?? false}
          commentsOpen={showComments}
          thread={showComments ? thread : undefined}
          onToggleComments={() => setShowComments(!showComments)}
          onToggleLike={signedIn(() => void toggleLike(post._id), undefined)}
          onToggleRepost={signedIn(() => void toggleRepost(post._id), undefined)}
          onQuote={signedIn(() => setQuoting(true), undefined)}
          onTogglePin={() => void togglePin(post._id)}
          repostedBy={repostedBy && { name: displayNameOf(repostedBy), username: repostedBy.username }}
          showPinned={showPinned}
          shareSheet={hasShareSheet()}
          onShare={() => void sharePost(post)}
          onToggleBookmark={signedIn(() => void toggleBookmark(post._id), undefined)}
          onEdit={() => setEditing(true)}
          onShowHistory={() => void showHistory()}
          onOpenMedia={setViewing}
          onVote={signedIn((choice: number) => votePoll(post._id, choice), Promise.resolve(false))}
          onDelete={() => setDeleting({ kind: 'post' })}
          onRestrictAuthor={(kind) => setRestricting({ kind, username: post.username })}
          onReport={username ? () => setReporting({ targetType: 'post', targetId: post._id }) : undefined}
          comments={{
            onAdd: signedIn(
              (text: string, replyTo?: string) => addComment(post._id, text, replyTo),
              Promise.resolve(false),
            ),
            onEdit: (commentId, text) => editComment(post._id, commentId, text),
            onDelete: (commentId) => setDeleting({ kind: 'comment', commentId }),
            onRestrict: (kind, username) => setRestricting({ kind, username }),
            ...(username
              ? {
                  onReport: (commentId) =>
                    setReporting({ targetType: 'comment', targetId: commentId, postId: post._id }),
                }
              : {}),
          }}
        />
      </FilteredPost>
      {history && <EditHistoryDialog versions={history.versions} onClose={() => setHistory(null)} />}
      {viewing !== null && (
        <Lightbox images={imagesOf(post)} start={viewing} author={post} onClose={() => setViewing(null)} />
      )}
      {reporting && (
        <ReportDialog
          subject={reporting.targetType}
          onSend={(category, comment) => sendReport(reporting, category, comment)}
          onClose={() => setReporting(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          {...confirmation(deleting)}
          onConfirm={() => void confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
      {restricting && (
        <RestrictDialog
          kind={restricting.kind}
          username={restricting.username}
          onConfirm={(duration) => {
            setRestricting(null)
            void restrictPerson(restricting.kind, restricting.username, duration)
          }}
          onCancel={() => setRestricting(null)}
        />
      )}
      {quoting && (
        <QuoteModal
          quoted={post}
          onSubmit={(draft) => createQuote(draft, post._id)}
          onUpload={uploadMedia}
          onFileError={(message) => showToast(message, 'error')}
          onClose={() => setQuoting(false)}
        />
      )}
      {editing && (
        <EditPostModal
          initial={{
            content: post.content,
            media: imagesOf(post).map(({ url, alt }) => ({ url, alt })),
            spoilerText: post.spoilerText ?? '',
          }}
          onSubmit={(draft) => editPost(post._id, draft)}
          onUpload={uploadMedia}
          onFileError={(message) => showToast(message, 'error')}
          onClose={() => setEditing(false)}
        />
      )}
    </>
  )
})
