import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { EmptyState } from '../components/empty-state.js'
import { LoadError } from '../components/load-error.js'
import { NotificationRow } from '../components/notification-row.js'
import { PostSkeleton } from '../components/post-skeleton.js'
import { Sentinel } from '../components/sentinel.js'
import { Spinner } from '../components/spinner.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { groupNotifications } from '../lib/notification-groups.js'
import { useNow } from '../lib/use-now.js'
import { loadNotifications, markNotificationsRead, notifications } from '../state/notifications.js'

const NOTIFICATIONS_EMPTY = 'Nothing yet. Likes, replies, mentions and new followers will show up here.'
const NOTIFICATIONS_END = "That's every notification."

/**
 * My notifications, newest first, more as the end comes into view. Being here is seeing them: each
 * newest one shown, on opening and as new ones arrive live, marks it and everything older read.
 */
export function NotificationsPage() {
  useDocumentTitle('Notifications')
  const state = useSnapshot(notifications).list
  const now = useNow()
  useEffect(() => {
    void loadNotifications()
  }, [])
  const newestId = state.items[0]?._id
  useEffect(() => {
    if (state.loaded && newestId) void markNotificationsRead()
  }, [state.loaded, newestId])

  const groups = groupNotifications(state.items)
  let body
  if (groups.length === 0) {
    if (state.loading || !state.loaded) body = <PostSkeleton label="Loading notifications" />
    else if (state.error) {
      body = <LoadError message={state.error} onRetry={state.retryable ? () => void loadNotifications() : undefined} />
    } else body = <EmptyState text={NOTIFICATIONS_EMPTY} />
  } else {
    body = (
      <>
        <ul className="notification-list" aria-label="Notifications">
          {groups.map((group) => (
            <NotificationRow key={group.id} group={group} now={now} />
          ))}
        </ul>
        {state.loading && <Spinner />}
        {state.error && (
          <LoadError message={state.error} onRetry={state.retryable ? () => void loadNotifications(true) : undefined} />
        )}
        {!state.done && (
          <Sentinel active={!state.loading && !state.error} onVisible={() => void loadNotifications(true)} />
        )}
        {state.done && <p className="end-text">{NOTIFICATIONS_END}</p>}
      </>
    )
  }
  return (
    <>
      <h1 className="page-title">Notifications</h1>
      {body}
    </>
  )
}
