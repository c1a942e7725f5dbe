import { useEffect, useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { PagedView } from '../../components/paged-view.js'
import { ReportCard } from '../../components/report-card.js'
import { Tabs } from '../../components/tabs.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { useNow } from '../../lib/use-now.js'
import { loadQueue, moderation, resolveReport, type QueueStatus } from '../../state/moderation.js'
import { StaffOnly } from './staff-only.js'

const TABS = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
] as const satisfies readonly { value: QueueStatus; label: string }[]

/** The reports of one tab, newest first, each with the reported content in context and, while open, its actions. */
function Queue() {
  const { queue, resolving, open } = useSnapshot(moderation)
  const [status, setStatus] = useState<QueueStatus>('open')
  const panel = useId()
  const now = useNow()
  useEffect(() => {
    void loadQueue(status)
  }, [status])
  const label = status === 'open' ? `Open reports (${open})` : 'Resolved reports'
  return (
    <>
      <Tabs label="Reports" tabs={TABS} value={status} panel={panel} onChange={setStatus} />
      <div role="tabpanel" id={panel} aria-label={label}>
        {queue.key === status && (
          <PagedView
            state={queue}
            label={label}
            empty={status === 'open' ? 'No open reports. All clear.' : 'No resolved reports yet.'}
            end="That's every report."
            onLoad={(more) => void loadQueue(status, more)}
          >
            {queue.items.map((report) => (
              <ReportCard
                key={report._id}
                report={report}
                now={now}
                busy={resolving[report._id] === true}
                onResolve={
                  report.status === 'open' ? (action, note) => void resolveReport(report._id, action, note) : undefined
                }
              />
            ))}
          </PagedView>
        )}
      </div>
    </>
  )
}

/** /moderation: the queue of reports. */
export function ModerationPage() {
  useDocumentTitle('Moderation')
  return (
    <StaffOnly title="Moderation">
      <Queue />
    </StaffOnly>
  )
}
