import type { ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { EmptyState } from '../components/empty-state.js'
import { LoadError } from '../components/load-error.js'
import { NewPostsButton } from '../components/new-posts-button.js'
import { PostSkeleton } from '../components/post-skeleton.js'
import { Sentinel } from '../components/sentinel.js'
import { Spinner } from '../components/spinner.js'
import { useReadingPosition } from '../lib/reading-position.js'
import { useDrawnCount } from '../lib/use-drawn-count.js'
import { lists, showWaitingPosts, type ListName } from '../state/lists.js'
import { postCache } from '../state/post-cache.js'
import { PostItem } from './post-item.js'

type PostListProps = {
  name: ListName
  emptyText: string
  /** More to offer under the empty text, such as people to follow. */
  emptyExtra?: ReactNode
  /** Shown under the last post once the server has no more. */
  endText?: string
  load: (more: boolean) => void
}

/** One of the post lists: placeholders while the first page loads, then posts, more on scroll (with a spinner). */
export function PostList({ name, emptyText, emptyExtra, endText, load }: PostListProps) {
  const snapshot = useSnapshot(lists)
  const list = snapshot[name]
  const reposted = snapshot.reposted
  const cached = useSnapshot(postCache).byId
  // Only the posts read here are watched: those down to the first with an image.
  const firstImage = list.ids.find((id) => cached[id]?.mediaUrl)
  const drawn = useDrawnCount(list.ids.length)
  const allDrawn = drawn === list.ids.length
  useReadingPosition(list.loaded && allDrawn && list.ids.length > 0)
  if (list.ids.length === 0 && list.waiting.length === 0) {
    if (list.loading || !list.loaded) return <PostSkeleton />
    if (list.error) return <LoadError message={list.error} onRetry={list.retryable ? () => load(false) : undefined} />
    return (
      <>
        <EmptyState text={emptyText} />
        {emptyExtra}
      </>
    )
  }
  const showWaiting = () => {
    showWaitingPosts(name)
    window.scrollTo({ top: 0, behavior: 'smooth' })
  }
  return (
    <>
      <NewPostsButton count={list.waiting.length} onShow={showWaiting} />
      <div className="post-list">
        {list.ids.slice(0, drawn).map((id) => (
          <PostItem
            key={id}
            postId={id}
            eagerMedia={id === firstImage}
            repostedBy={name === 'home' ? reposted[id]?.by : undefined}
            showPinned={name === 'profile'}
          />
        ))}
      </div>
      {list.loading && <Spinner />}
      {list.error && <LoadError message={list.error} onRetry={list.retryable ? () => load(true) : undefined} />}
      {/* Until every post is drawn the end of the list is not where it will be: no asking for more yet. */}
      {!list.done && <Sentinel active={allDrawn && !list.loading && !list.error} onVisible={() => load(true)} />}
      {list.done && allDrawn && endText && <p className="end-text">{endText}</p>}
    </>
  )
}
