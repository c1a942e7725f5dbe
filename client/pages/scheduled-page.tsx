import { useEffect, useState } from 'react'
import { errorMessage } from '../api/http.js'
import { apiCancelScheduled, apiReschedule, apiScheduledStatuses, type ScheduledStatus } from '../api/scheduled.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { formatFullDate } from '../lib/relative-time.js'
import { showToast } from '../state/toasts.js'

/** An ISO date as a datetime-local input holds it: local time, to the minute. */
function localInput(iso: string): string {
  const at = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`
}

/** One scheduled post: its text, when it goes out, a new time to move it to, and Cancel. */
function ScheduledRow(props: {
  item: ScheduledStatus
  onMove: (at: string) => Promise<boolean>
  onCancel: () => void
}) {
  const { item } = props
  const [when, setWhen] = useState(localInput(item.scheduled_at))
  const [busy, setBusy] = useState(false)
  const inputId = `when-${item.id}`
  return (
    <li className="card scheduled-row">
      <p className="scheduled-when">
        Publishes <time dateTime={item.scheduled_at}>{formatFullDate(item.scheduled_at)}</time>
      </p>
      {item.params.spoiler_text && <p className="scheduled-warning">Content warning: {item.params.spoiler_text}</p>}
      <p className="scheduled-text">{item.params.text}</p>
      {(item.params.media_ids?.length ?? 0) > 0 && (
        <p className="scheduled-extra">
          {item.params.media_ids?.length === 1 ? '1 image' : `${item.params.media_ids?.length} images`}
        </p>
      )}
      {item.params.poll && <p className="scheduled-extra">Poll: {item.params.poll.options.join(' / ')}</p>}
      <form
        className="scheduled-actions"
        onSubmit={(event) => {
          event.preventDefault()
          setBusy(true)
          void props.onMove(new Date(when).toISOString()).finally(() => setBusy(false))
        }}
      >
        <label htmlFor={inputId}>New time</label>
        <input id={inputId} type="datetime-local" value={when} onChange={(event) => setWhen(event.target.value)} />
        <button type="submit" className="button small" disabled={busy || when === ''}>
          Reschedule
        </button>
        <button type="button" className="button ghost small danger" onClick={props.onCancel}>
          Cancel post
        </button>
      </form>
    </li>
  )
}

/** My scheduled posts, the soonest first, each to move or cancel (through the Mastodon routes, DECISIONS §17). */
export function ScheduledPage() {
  useDocumentTitle('Scheduled posts')
  const [items, setItems] = useState<ScheduledStatus[] | null>(null)
  const [cancelling, setCancelling] = useState<ScheduledStatus | null>(null)
  const load = () =>
    apiScheduledStatuses().then(setItems, (error: unknown) => {
      setItems([])
      showToast(errorMessage(error), 'error')
    })
  useEffect(() => {
    void load()
  }, [])

  async function move(id: string, at: string): Promise<boolean> {
    try {
      const moved = await apiReschedule(id, at)
      showToast(`Rescheduled for ${formatFullDate(moved.scheduled_at)}`, 'success')
      await load()
      return true
    } catch (error) {
      showToast(errorMessage(error), 'error')
      return false
    }
  }

  async function cancel(item: ScheduledStatus) {
    setCancelling(null)
    try {
      await apiCancelScheduled(item.id)
      setItems((now) => (now ?? []).filter((each) => each.id !== item.id))
      showToast('The scheduled post was cancelled', 'success')
    } catch (error) {
      showToast(errorMessage(error), 'error')
    }
  }

  return (
    <>
      <h1 className="page-title">Scheduled posts</h1>
      {items === null ? (
        <p className="scheduled-empty">Loading…</p>
      ) : items.length === 0 ? (
        <p className="scheduled-empty">No scheduled posts. Choose Schedule in the composer to post later.</p>
      ) : (
        <ul className="scheduled-list" aria-label="Scheduled posts, the soonest first">
          {items.map((item) => (
            <ScheduledRow
              key={`${item.id}:${item.scheduled_at}`}
              item={item}
              onMove={(at) => move(item.id, at)}
              onCancel={() => setCancelling(item)}
            />
          ))}
        </ul>
      )}
      {cancelling && (
        <ConfirmDialog
          title="Cancel this post?"
          text="It will not be published, and cannot be brought back."
          confirmLabel="Cancel post"
          onConfirm={() => void cancel(cancelling)}
          onCancel={() => setCancelling(null)}
        />
      )}
    </>
  )
}
