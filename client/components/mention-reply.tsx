import { useEffect, useId, useRef, useState } from 'react'
import { hasVisibleText } from '../../server/schemas/text.js'
import { useDraftGuard } from '../lib/draft-guard.js'
import { displayNameOf, type UserSummaryView } from '../lib/model.js'
import { CommentIcon } from './icons.js'
import { LIMITS } from '../../common/limits.js'

type MentionReplyProps = {
  /** Who mentioned me: the reply starts by naming them, as an answer on the post would. */
  to: UserSummaryView
  onReply: (text: string) => Promise<boolean>
}

/** Answering a mention where it is listed: a Reply button that opens a box, sent as a comment on the post. */
export function MentionReply({ to, onReply }: MentionReplyProps) {
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const box = useRef<HTMLTextAreaElement>(null)
  const id = useId()
  const greeting = `@${to.username} `
  useDraftGuard(open && text.trim() !== greeting.trim() && text.trim() !== '')

  useEffect(() => {
    const field = box.current
    if (!open || !field) return
    field.focus()
    field.setSelectionRange(field.value.length, field.value.length)
  }, [open])

  if (!open) {
    return (
      <button
        type="button"
        className="button outline small"
        aria-label={`Reply to ${displayNameOf(to)}`}
        onClick={() => {
          setText(greeting)
          setOpen(true)
        }}
      >
        <CommentIcon />
        Reply
      </button>
    )
  }
  const send = async () => {
    if (!hasVisibleText(text) || sending) return
    setSending(true)
    const sent = await onReply(text.trim())
    setSending(false)
    if (sent) setOpen(false)
  }
  return (
    <form
      className="mention-reply"
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Reply to {displayNameOf(to)}
      </label>
      <textarea
        id={id}
        ref={box}
        rows={2}
        maxLength={LIMITS.comment}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false)
        }}
      />
      <div className="mention-reply-buttons">
        <button type="button" className="button outline small" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button type="submit" className="button primary small" disabled={!hasVisibleText(text) || sending}>
          Send reply
        </button>
      </div>
    </form>
  )
}
