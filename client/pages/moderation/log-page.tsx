import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import type { AuditEntry } from '../../api/types.js'
import { PagedView } from '../../components/paged-view.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import type { DeepReadonly } from '../../lib/model.js'
import { formatFullDate } from '../../lib/relative-time.js'
import { paths } from '../../paths.js'
import { loadAuditLog, moderatedPeople } from '../../state/moderated-people.js'
import { StaffOnly } from './staff-only.js'

/** Who did it: a moderator's handle, or the operator's command line. */
const actorOf = (entry: DeepReadonly<AuditEntry>) =>
  entry.actor === 'cli' ? 'The command line' : `@${entry.actor.username}`

/** The audit log's words for an action, e.g. "remove-post" → "remove post". */
const actionText = (action: string) => action.replace(/-/g, ' ')

function Entry({ entry }: { entry: DeepReadonly<AuditEntry> }) {
  const target =
    entry.targetType === 'user' ? (
      <Link href={paths.moderationUser.href(entry.targetId)}>a user</Link>
    ) : (
      `a ${entry.targetType}`
    )
  return (
    <li className="audit-entry">
      <p>
        <strong>{actorOf(entry)}</strong> — {actionText(entry.action)} — {target}
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
