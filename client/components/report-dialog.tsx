import { useId, useState, type FormEvent } from 'react'
import type { ReportCategory } from '../lib/model.js'
import { Modal } from './modal.js'
import { LIMITS } from '../../common/limits.js'

/** The most a report's comment holds (DECISIONS §8). */
const REPORT_COMMENT_MAX = LIMITS.reportComment

const CATEGORIES: readonly { value: ReportCategory; label: string; description: string }[] = [
  { value: 'spam', label: 'Spam', description: 'Ads, scams, fake accounts or the same thing posted over and over.' },
  { value: 'abuse', label: 'Abuse or harassment', description: 'Insults, threats, hate, or targeting someone.' },
  { value: 'illegal', label: 'Illegal content', description: 'Something that breaks the law where you are.' },
  {
    value: 'other',
    label: 'Something else',
    description: 'It breaks the rules in a way not listed here. Tell us how below.',
  },
]

const SUBJECT = { post: 'post', comment: 'comment', user: 'account' } as const

type ReportDialogProps = {
  /** What is reported: the title and the question name it. */
  subject: keyof typeof SUBJECT
  /** Sends the report; true when it went, and the dialog closes. */
  onSend: (category: ReportCategory, comment: string) => Promise<boolean>
  onClose: () => void
}

/** A short report: why (one of four plain categories), and optionally what a moderator should know. */
export function ReportDialog({ subject, onSend, onClose }: ReportDialogProps) {
  const [category, setCategory] = useState<ReportCategory | null>(null)
  const [comment, setComment] = useState('')
  const [sending, setSending] = useState(false)
  const id = useId()
  const countId = `${id}-count`
  const noun = SUBJECT[subject]

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!category || sending) return
    setSending(true)
    const sent = await onSend(category, comment)
    setSending(false)
    if (sent) onClose()
  }

  return (
    <Modal title={`Report this ${noun}`} onClose={onClose}>
      <form className="stack report-form" onSubmit={(event) => void submit(event)}>
        <fieldset className="choice-list">
          <legend>Why are you reporting this {noun}?</legend>
          {CATEGORIES.map((option) => (
            <label key={option.value} className="choice">
              <input
                type="radio"
                name={`${id}-category`}
                value={option.value}
                checked={category === option.value}
                aria-describedby={`${id}-${option.value}`}
                onChange={() => setCategory(option.value)}
              />
              <span className="choice-text">
                <span>{option.label}</span>
                <span id={`${id}-${option.value}`} className="field-hint">
                  {option.description}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-comment`}>Anything a moderator should know? (optional)</label>
          <textarea
            id={`${id}-comment`}
            rows={3}
            maxLength={REPORT_COMMENT_MAX}
            value={comment}
            aria-describedby={countId}
            onChange={(event) => setComment(event.currentTarget.value)}
          />
          <p id={countId} className="field-hint">
            {comment.length.toLocaleString('en')} / {REPORT_COMMENT_MAX.toLocaleString('en')} characters
          </p>
        </div>
        <div className="row-end">
          <button type="button" className="button outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button dark" disabled={!category || sending}>
            {sending ? 'Sending…' : 'Send report'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
