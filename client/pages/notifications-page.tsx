import { useEffect, useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import { EmptyState } from '../components/empty-state.js'
import { LoadError } from '../components/load-error.js'
import { NotificationRow } from '../components/notification-row.js'
import { PostSkeleton } from '../components/post-skeleton.js'
import { Sentinel } from '../components/sentinel.js'
import { Spinner } from '../components/spinner.js'
import { Tabs } from '../components/tabs.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { followRequestsLabel, groupNotifications, type NotificationGroup } from '../lib/notification-groups.js'
import { useNow } from '../lib/use-now.js'
import { paths } from '../paths.js'
import { loadNotifications, markNotificationsRead, notifications } from '../state/notifications.js'
import { addComment } from '../state/posts.js'
import { showToast } from '../state/toasts.js'
import { follows, toggleFollow } from '../state/follows.js'
import { session } from '../state/session.js'
import { isFollowing, users } from '../state/users.js'

type Filter = 'all' | 'mentions'
const TABS = [
  { value: 'all', label: 'All' },
  { value: 'mentions', label: 'Mentions' },
] as const satisfies readonly { value: Filter; label: string }[]

const EMPTY: Record<Filter, string> = {
  all: 'Nothing yet. Likes, replies, mentions and new followers will show up here.',
  mentions: 'No mentions yet. When someone writes your @username, it shows up here.',
}
const END: Record<Filter, string> = {
  all: "That's every notification.",
  mentions: "That's every mention.",
}

/**
 * My notifications, newest first, more as the end comes into view; All or only Mentions. Being here is
 * seeing them: each newest one shown, on opening and as new ones arrive live, marks it and everything
 * older read. The Mentions tab reads the same pages and shows their mentions, reading on while the
 * sentinel stays in view.
 */
export function NotificationsPage() {
  useDocumentTitle('Notifications')
  const state = useSnapshot(notifications).list
  const { pending, requested } = useSnapshot(users)
  const me = useSnapshot(session).user
  const requests = useSnapshot(follows).requests
  const now = useNow()
  const [filter, setFilter] = useState<Filter>('all')
  const panel = useId()
  useEffect(() => {
    void loadNotifications()
  }, [])
  const newestId = state.items[0]?._id
  useEffect(() => {
    if (state.loaded && newestId) void markNotificationsRead()
  }, [state.loaded, newestId])

  const shown = filter === 'all' ? state.items : state.items.filter((n) => n.type === 'mention')
  // A `follow` from someone I follow who does not follow me is their answer to my request: they accepted it.
  const following = new Set(me?.following.map((u) => u._id))
  const followers = new Set(me?.followers.map((u) => u._id))
  const groups = groupNotifications(shown, (n) => following.has(n.actor._id) && !followers.has(n.actor._id))
  const retry = (more: boolean) => (state.retryable ? () => void loadNotifications(more) : undefined)
  const actionsFor = (group: NotificationGroup) => {
    const first = group.actors[0]
    const post = group.newest.post
    if (group.type === 'follow' && first) {
      const followBack = {
        following: isFollowing(first._id),
        requested: requested[first._id] === true,
        busy: pending[first._id] === true,
      }
      return { followBack: { ...followBack, onToggle: () => void toggleFollow(first._id, first) } }
    }
    if (group.type !== 'mention' || !post) return {}
    return {
      onReply: async (text: string) => {
        const sent = await addComment(post._id, text)
        if (sent) showToast('Your reply was sent', 'success')
        return sent
      },
    }
  }

  let body
  if (groups.length === 0 && (state.done || !state.loaded || state.error)) {
    if (state.loading || !state.loaded) body = <PostSkeleton label="Loading notifications" />
    else if (state.error) body = <LoadError message={state.error} onRetry={retry(false)} />
    else body = <EmptyState text={EMPTY[filter]} />
  } else {
    body = (
      <>
        {groups.length > 0 && (
          <ul className="notification-list" aria-label="Notifications">
            {groups.map((group) => (
              <NotificationRow key={group.id} group={group} now={now} {...actionsFor(group)} />
            ))}
          </ul>
        )}
        {state.loading && <Spinner />}
        {state.error && <LoadError message={state.error} onRetry={retry(true)} />}
        {!state.done && (
          <Sentinel active={!state.loading && !state.error} onVisible={() => void loadNotifications(true)} />
        )}
        {state.done && <p className="end-text">{END[filter]}</p>}
      </>
    )
  }
  return (
    <>
      <h1 className="page-title">Notifications</h1>
      {/* The frame reads a locked account's requests; while some wait, they are a click away. */}
      {requests.items.length > 0 && (
        <p className="follow-requests-link">
          <Link href={paths.followRequests.href()}>{followRequestsLabel(requests.items.length, requests.done)}</Link>
        </p>
      )}
      <Tabs label="Show" tabs={TABS} value={filter} panel={panel} onChange={setFilter} />
      <div role="tabpanel" id={panel} aria-label={TABS.find((t) => t.value === filter)?.label}>
        {body}
      </div>
    </>
  )
}
