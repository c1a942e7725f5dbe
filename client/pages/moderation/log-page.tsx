import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import type { AuditEntry } from '../../api/types.js'
import { PagedView } from '../../components/paged-view.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { displayNameOf, type DeepReadonly } from '../../lib/model.js'
import { formatFullDate } from '../../lib/relative-time.js'
import { paths } from '../../paths.js'
import { loadAuditLog, moderatedPeople } from '../../state/moderated-people.js'
import { StaffOnly } from './staff-only.js'

/** Who did it: a moderator's handle, or the operator's command line. */
const actorOf = (entry: DeepReadonly<AuditEntry>) =>
  entry.actor === 'cli' ? 'The command line' : `@${entry.actor.username}`

/** The audit log's words for an action, e.g. "remove-post" → "remove post". */
const actionText = (action: string) => action.replace(/-/g, ' ')

/** Whom or what it was done to: a person by name and handle (or, their account gone, "a user"); else its kind. */
function Target({ entry }: { entry: DeepReadonly<AuditEntry> }) {
  if (entry.targetType !== 'user') return <>a {entry.targetType}</>
  const { target } = entry
  if (!target) return <>a user</>
  return (
    <Link href={paths.moderationUser.href(entry.targetId)}>
      {displayNameOf(target)} (@{target.username})
    </Link>
  )
}

function Entry({ entry }: { entry: DeepReadonly<AuditEntry> }) {
  return (
    <li className="audit-entry">
      <p>
        <strong>{actorOf(entry)}</strong> — {actionText(entry.action)} — <Target entry={entry} />
        {entry.reason && <>: “{entry.reason}”</>}
      </p>
      <time className="report-meta" dateTime={entry.createdAt}>
        {formatFullDate(entry.createdAt)}
      </time>
    </li>
  )
}

function Log() {
  const { log } = useSnapshot(moderatedPeople)
  useEffect(() => {
    void loadAuditLog()
  }, [])
  return (
    <PagedView
      state={log}
      label="Audit log"
      empty="No moderator actions yet."
      end="That's the whole log."
      onLoad={(more) => void loadAuditLog(more)}
    >
      {log.items.map((entry) => (
        <Entry key={entry._id} entry={entry} />
      ))}
    </PagedView>
  )
}

/** /moderation/log: every moderator action, newest first, a page at a time; nothing in it can be changed. */
export function ModerationLogPage() {
  useDocumentTitle('Audit log')
  return (
    <StaffOnly title="Audit log">
      <Log />
    </StaffOnly>
  )
}
