import { Fragment, useId, useRef, useState, type FormEvent } from 'react'
import { hasVisibleText } from '../../server/schemas/text.js'
import { useDraftGuard } from '../lib/draft-guard.js'
import { useNow } from '../lib/use-now.js'
import type { CommentView } from '../lib/model.js'
import type { Restriction } from '../lib/restrict-text.js'
import { CommentItem } from './comment-item.js'
import { LoadError } from './load-error.js'
import { Spinner } from './spinner.js'
import { LIMITS } from '../../common/limits.js'

export type CommentHandlers = {
  /** A comment, or with `replyTo` a reply to one. */
  onAdd: (text: string, replyTo?: string) => Promise<boolean>
  onEdit: (commentId: string, text: string) => Promise<boolean>
  onDelete: (commentId: string) => void
  /** Mutes or blocks a comment's author (after asking); without it their comments offer neither. */
  onRestrict?: (kind: Restriction, username: string) => void
  /** Reports someone else's comment (in a dialog); without it comments offer no Report. */
  onReport?: (commentId: string) => void
}

/** How reading a post's comments goes, once they are opened: whether more are to come, or it failed. */
export type CommentsReading = {
  loading: boolean
  error: string | null
  /** Whether trying again may help after `error`: not after a 404 (the post is gone). */
  retryable: boolean
  more: boolean
  /** Reads the next page, or tries again after a failure. */
  onMore: () => void
}

type CommentsSectionProps = {
  comments: readonly CommentView[]
  me: string
  postOwner: string
  /** The time the comments' ages are told from; without it, the shared clock's. */
  now?: number | undefined
  handlers: CommentHandlers
  reading?: CommentsReading | undefined
}

/**
 * Threads one level deep: the comments that answer none, newest first, each followed by its replies,
 * oldest first. A reply whose comment is not among those read stands on its own.
 */
function threadsOf(comments: readonly CommentView[]): { root: CommentView; replies: CommentView[] }[] {
  const ids = new Set(comments.map((comment) => comment._id))
  const roots = comments.filter((comment) => comment.replyTo === null || !ids.has(comment.replyTo))
  return roots
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((root) => ({
      root,
      replies: comments
        .filter((comment) => comment.replyTo === root._id)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    }))
}

/** The reply box, then the comments as threads, newest first. */
export function CommentsSection({ comments, me, postOwner, now: given, handlers, reading }: CommentsSectionProps) {
  const live = useNow()
  const now = given ?? live
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const [answering, setAnswering] = useState<CommentView | null>(null)
  const replyId = useId()
  const textRef = useRef<HTMLTextAreaElement>(null)
  useDraftGuard(text.trim() !== '')
  const threads = threadsOf(comments)
  const answer = (comment: CommentView) => {
    setAnswering(comment)
    textRef.current?.focus()
  }
  const item = (comment: CommentView) => (
    <CommentItem
      key={comment._id}
      comment={comment}
      canEdit={comment.username === me}
      canDelete={comment.username === me || postOwner === me}
      now={now}
      onEdit={(value) => handlers.onEdit(comment._id, value)}
      onDelete={() => handlers.onDelete(comment._id)}
      onReply={() => answer(comment)}
      onRestrict={
        comment.username !== me && handlers.onRestrict
          ? (kind) => handlers.onRestrict?.(kind, comment.username)
          : undefined
      }
      onReport={comment.username !== me && handlers.onReport ? () => handlers.onReport?.(comment._id) : undefined}
    />
  )

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!hasVisibleText(text) || sending) return
    setSending(true)
    const ok = await handlers.onAdd(text.trim(), answering?._id)
    setSending(false)
    if (ok) {
      setText('')
      setAnswering(null)
    }
  }

  return (
    <section className="comments" aria-label="Comments">
      <form className="reply-form" onSubmit={(event) => void submit(event)}>
        {answering && (
          <p className="reply-to">
            Replying to @{answering.username}{' '}
            <button type="button" className="button ghost small" onClick={() => setAnswering(null)}>
              Cancel reply
            </button>
          </p>
        )}
        <label htmlFor={replyId} className="visually-hidden">
          {answering ? `Reply to @${answering.username}` : 'Reply'}
        </label>
        <textarea
          ref={textRef}
          id={replyId}
          placeholder="Post your reply"
          rows={2}
          maxLength={LIMITS.comment}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" className="button primary small" disabled={!hasVisibleText(text) || sending}>
          Reply
        </button>
      </form>
      {threads.length > 0 && (
        <ul className="comment-list">
          {threads.map(({ root, replies }) =>
            replies.length === 0 ? (
              item(root)
            ) : (
              <Fragment key={root._id}>
                {item(root)}
                <li className="comment-replies">
                  <ul className="comment-list" aria-label={`Replies to @${root.username}`}>
                    {replies.map(item)}
                  </ul>
                </li>
              </Fragment>
            ),
          )}
        </ul>
      )}
      {reading?.loading && <Spinner label="Loading comments" />}
      {reading?.error && (
        <LoadError small message={reading.error} onRetry={reading.retryable ? reading.onMore : undefined} />
      )}
      {reading?.more && !reading.loading && !reading.error && (
        <button type="button" className="button outline small" onClick={reading.onMore}>
          Show more replies
        </button>
      )}
    </section>
  )
}
