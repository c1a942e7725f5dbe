import { useId, useState } from 'react'
import { Link } from 'wouter'
import { displayNameOf, type ReportView, type ResolveAction, type UserSummaryView } from '../lib/model.js'
import { relativeTime } from '../lib/relative-time.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { RichText } from './rich-text.js'
import { UserCard } from './user-card.js'
import { LIMITS } from '../../common/limits.js'

const CATEGORY: Record<ReportView['category'], string> = {
  spam: 'Spam',
  abuse: 'Abuse or harassment',
  illegal: 'Illegal content',
  other: 'Something else',
}

const ACTION: Record<ResolveAction, string> = { dismiss: 'Dismissed', remove: 'Removed', suspend: 'Suspended' }

type ReportCardProps = {
  report: ReportView
  now: number
  busy: boolean
  /** Open reports only: resolves it with one action and the note written. */
  onResolve?: ((action: ResolveAction, note: string) => void) | undefined
}

/** Someone's words as the queue shows them: who, and what, as it is now or as it was when removed. */
function Quoted({ author, text, href }: { author: UserSummaryView; text: string; href?: string | undefined }) {
  const name = displayNameOf(author)
  return (
    <blockquote className="report-quote">
      <span className="report-quote-head">
        <Avatar src={author.avatarURL} name={name} size="sm" decorative />
        <span className="author-name">{name}</span>
        <span className="author-handle">@{author.username}</span>
      </span>
      <p className="report-quote-text">
        <RichText text={text} />
      </p>
      {href && (
        <Link href={href} className="report-quote-link">
          Open the post
        </Link>
      )}
    </blockquote>
  )
}

/** The reported thing in its context: a post, a comment with a link to its post, or a person. */
function Target({ report }: { report: ReportView }) {
  const { target } = report
  const postHref = (id: string | undefined) => (report.removed || !id ? undefined : paths.postDetail.href(id))
  if (report.targetType === 'user') return <UserCard user={target as UserSummaryView} />
  if ('text' in target) return <Quoted author={target} text={target.text} href={postHref(report.postId)} />
  if ('content' in target) return <Quoted author={target} text={target.content} href={postHref(target._id)} />
  return null
}

/** One report in the moderation queue: who reported what and why, and, while open, the one-click actions. */
export function ReportCard({ report, now, busy, onResolve }: ReportCardProps) {
  const [note, setNote] = useState('')
  const id = useId()
  const reporter = displayNameOf(report.reporter)
  // A post and a comment carry their author's names as a person does: whose it is, or who it is.
  const author = report.target as UserSummaryView
  const what = report.targetType === 'user' ? 'account' : report.targetType
  return (
    <li className="report-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="report-title">
        {CATEGORY[report.category]}: a {what} by @{author.username}
      </h2>
      <p className="report-meta">
        Reported by <Link href={paths.moderationUser.href(report.reporter._id)}>{reporter}</Link>{' '}
        <time dateTime={report.createdAt}>{relativeTime(report.createdAt, now)}</time>
        {report.removed && <span className="report-badge">Removed</span>}
      </p>
      {report.comment && <p className="report-comment">“{report.comment}”</p>}
      <Target report={report} />
      <p className="report-meta">
        <Link href={paths.moderationUser.href(report.subjectId)}>Moderate @{author.username}</Link>
      </p>
      {report.status === 'resolved' && (
        <p className="report-meta">
          {report.action ? ACTION[report.action] : 'Resolved'}
          {report.resolvedBy && ` by @${report.resolvedBy.username}`}
          {report.note && `: ${report.note}`}
        </p>
      )}
      {onResolve && (
        <div className="report-actions">
          <label htmlFor={`${id}-note`}>Note (optional)</label>
          <textarea
            id={`${id}-note`}
            rows={2}
            maxLength={LIMITS.reportComment}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
          />
          <div className="row-end">
            <button type="button" className="button outline" disabled={busy} onClick={() => onResolve('dismiss', note)}>
              Dismiss
            </button>
            {report.targetType !== 'user' && !report.removed && (
              <button type="button" className="button danger" disabled={busy} onClick={() => onResolve('remove', note)}>
                Remove {report.targetType}
              </button>
            )}
            <button type="button" className="button danger" disabled={busy} onClick={() => onResolve('suspend', note)}>
              Suspend @{author.username}
            </button>
          </div>
        </div>
      )}
    </li>
  )
}
