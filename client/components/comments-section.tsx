import { Fragment, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
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

/** How many levels of replies are drawn indented; deeper replies line up at the last, saying whom they answer. */
const INDENTED_LEVELS = 3

type ThreadNode = { comment: CommentView; children: ThreadNode[] }

/**
 * The comments as a tree, oldest first at every level, as Mastodon reads a thread: each reply under the
 * comment it answers. A reply whose comment is not among those read stands on its own.
 */
function treeOf(comments: readonly CommentView[]): ThreadNode[] {
  const nodes = new Map(comments.map((comment) => [comment._id, { comment, children: [] as ThreadNode[] }]))
  const roots: ThreadNode[] = []
  const byAge = [...nodes.values()].sort((a, b) => a.comment.createdAt.localeCompare(b.comment.createdAt))
  for (const node of byAge) {
    const parent = node.comment.replyTo === null ? undefined : nodes.get(node.comment.replyTo)
    ;(parent ? parent.children : roots).push(node)
  }
  return roots
}

/** The reply box, then the comments as threads, oldest first. */
export function CommentsSection({ comments, me, postOwner, now: given, handlers, reading }: CommentsSectionProps) {
  const live = useNow()
  const now = given ?? live
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const [answering, setAnswering] = useState<CommentView | null>(null)
  const replyId = useId()
  const textRef = useRef<HTMLTextAreaElement>(null)
  useDraftGuard(text.trim() !== '')
  const threads = treeOf(comments)
  const answer = (comment: CommentView) => {
    setAnswering(comment)
    textRef.current?.focus()
  }
  const item = (comment: CommentView, answers?: CommentView) => (
    <CommentItem
      key={comment._id}
      comment={comment}
      answers={answers?.username}
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

  /**
   * Comments of one level, each followed by its replies: indented in a list of their own down to
   * INDENTED_LEVELS, beneath which they follow in the same list, in thread order, each naming whom it answers.
   */
  const branches = (nodes: readonly ThreadNode[], depth: number, parent?: CommentView): ReactNode[] =>
    nodes.map(({ comment, children }) => (
      <Fragment key={comment._id}>
        {item(comment, depth > INDENTED_LEVELS ? parent : undefined)}
        {children.length > 0 &&
          (depth < INDENTED_LEVELS ? (
            <li className="comment-replies">
              <ul className="comment-list" aria-label={`Replies to @${comment.username}`}>
                {branches(children, depth + 1, comment)}
              </ul>
            </li>
          ) : (
            branches(children, depth + 1, comment)
          ))}
      </Fragment>
    ))

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
      {threads.length > 0 && <ul className="comment-list">{branches(threads, 0)}</ul>}
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
