import { useId, useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { hasVisibleText } from '../../server/schemas/text.js'
import { useDraftGuard } from '../lib/draft-guard.js'
import { displayNameOf, type CommentView } from '../lib/model.js'
import { relativeTime } from '../lib/relative-time.js'
import { restrictItems, type Restriction } from '../lib/restrict-text.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { Menu, type MenuItem } from './menu.js'
import { EmojiText, RichText } from './rich-text.js'
import { LIMITS } from '../../common/limits.js'

type CommentItemProps = {
  comment: CommentView
  /** The username of the comment this one answers, when the thread is drawn too deep to show it by indenting. */
  answers?: string | undefined
  canEdit: boolean
  canDelete: boolean
  now: number
  onEdit: (text: string) => Promise<boolean>
  onDelete: () => void
  /** Answers the comment: the reply box says whom it answers. */
  onReply?: (() => void) | undefined
  /** Someone else's comment: its author can be muted or blocked from its menu. */
  onRestrict?: ((kind: Restriction) => void) | undefined
  /** Someone else's comment: it can be reported from its menu. */
  onReport?: (() => void) | undefined
}

/** One comment; its author may edit it in place (textarea and Update) or delete it. */
export function CommentItem(props: CommentItemProps) {
  const { comment, answers, canEdit, canDelete, now, onEdit, onDelete, onReply, onRestrict, onReport } = props
  const [draft, setDraft] = useState<string | null>(null)
  const editId = useId()
  useDraftGuard(draft !== null && draft.trim() !== comment.text)
  const name = displayNameOf(comment)
  const items: MenuItem[] = []
  if (canEdit) items.push({ label: 'Edit', onSelect: () => setDraft(comment.text) })
  if (canDelete) items.push({ label: 'Delete', onSelect: onDelete, danger: true })
  if (onRestrict) items.push(...restrictItems(comment.username, onRestrict, onReport && { what: 'comment', onReport }))

  const update = async (event: FormEvent) => {
    event.preventDefault()
    if (draft === null || !hasVisibleText(draft)) return
    if (await onEdit(draft.trim())) setDraft(null)
  }

  return (
    <li className="comment">
      <Link href={paths.profile.href(comment.username)} aria-label={`${name}'s profile`}>
        <Avatar src={comment.avatarURL} name={name} size="sm" />
      </Link>
      <div className="comment-main">
        <div className="post-head">
          <Link href={paths.profile.href(comment.username)} className="post-author">
            <span className="author-name">
              <EmojiText text={name} emojis={comment.emojis} />
            </span>
            <span className="author-handle">@{comment.username}</span>
          </Link>
          <span className="dot" aria-hidden="true">
            ·
          </span>
          <time className="post-time" dateTime={comment.createdAt}>
            {relativeTime(comment.createdAt, now)}
          </time>
          {items.length > 0 && <Menu label="Comment options" items={items} />}
        </div>
        {answers !== undefined && <p className="comment-answers">Replying to @{answers}</p>}
        {draft === null ? (
          <>
            <p className="comment-text">
              <RichText text={comment.text} emojis={comment.emojis} />
            </p>
            {onReply && (
              <button
                type="button"
                className="button ghost small comment-reply"
                aria-label={`Reply to @${comment.username}`}
                onClick={onReply}
              >
                Reply
              </button>
            )}
          </>
        ) : (
          <form className="reply-form" onSubmit={(event) => void update(event)}>
            <label htmlFor={editId} className="visually-hidden">
              Edit comment
            </label>
            <textarea
              id={editId}
              rows={2}
              maxLength={LIMITS.comment}
              value={draft}
              autoFocus
              onChange={(e) => setDraft(e.currentTarget.value)}
            />
            <div className="row-end">
              <button type="button" className="button ghost small" onClick={() => setDraft(null)}>
                Cancel
              </button>
              <button type="submit" className="button primary small" disabled={!hasVisibleText(draft)}>
                Update
              </button>
            </div>
          </form>
        )}
      </div>
    </li>
  )
}
