import { memo, useCallback, useState, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { EmptyState } from '../components/empty-state.js'
import { LoadError } from '../components/load-error.js'
import { NewPostsButton } from '../components/new-posts-button.js'
import { PostSkeleton } from '../components/post-skeleton.js'
import { Sentinel } from '../components/sentinel.js'
import { Spinner } from '../components/spinner.js'
import { PopoverHost } from '../components/use-popover.js'
import { useReadingPosition } from '../lib/reading-position.js'
import { useDrawnCount } from '../lib/use-drawn-count.js'
import { lists, showWaitingPosts, type ListName } from '../state/lists.js'
import { postCache } from '../state/post-cache.js'
import { PostItem } from './post-item.js'
import type { UserSummary } from '../api/types.js'

/** Cards are drawn in groups of this many: a group whose posts stay the same is not drawn again. */
const CHUNK = 20

function chunksOf(ids: readonly string[], drawn: number): (readonly string[])[] {
  const chunks: (readonly string[])[] = []
  for (let start = 0; start < drawn; start += CHUNK) chunks.push(ids.slice(start, Math.min(drawn, start + CHUNK)))
  return chunks
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i])

/**
 * One group of cards. Drawing two more cards at post 500 then costs what it costs at post 20: only the
 * last group draws again, where the whole list used to, each time a few more cards were added.
 */
type ChunkProps = {
  ids: readonly string[]
  eager: string
  /** Beside each id: who reposted it, when the home feed shows it for that. */
  reposters: readonly (UserSummary | undefined)[]
  showPinned: boolean
}

const sameChunk = (a: ChunkProps, b: ChunkProps) =>
  a.eager === b.eager &&
  a.showPinned === b.showPinned &&
  sameIds(a.ids, b.ids) &&
  a.reposters.every((by, i) => by === b.reposters[i])

/**
 * Each group is a box of its own that the browser skips whole while it is off screen
 * (`content-visibility: auto` on `.post-chunk`): at post 500 the browser lays out, walks for painting
 * and watches for visibility 25 boxes, not 500 cards. Like a card, a group is drawn in full while a
 * menu or emoji grid is open in it, which would otherwise be clipped at the group's edge.
 */
const PostChunk = memo(function PostChunk({ ids, eager, reposters, showPinned }: ChunkProps) {
  const [popovers, setPopovers] = useState(0)
  const onPopover = useCallback((open: boolean) => setPopovers((count) => count + (open ? 1 : -1)), [])
  return (
    <PopoverHost value={onPopover}>
      <div className={popovers > 0 ? 'post-chunk has-popover' : 'post-chunk'}>
        {ids.map((id, i) => (
          <PostItem key={id} postId={id} eagerMedia={id === eager} repostedBy={reposters[i]} showPinned={showPinned} />
        ))}
      </div>
    </PopoverHost>
  )
}, sameChunk)

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
  const firstImage = list.items.find((id) => cached[id]?.mediaUrl)
  const drawn = useDrawnCount(list.items.length)
  const allDrawn = drawn === list.items.length
  useReadingPosition(list.loaded && allDrawn && list.items.length > 0)
  if (list.items.length === 0 && list.waiting.length === 0) {
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
        {chunksOf(list.items, drawn).map((ids, i) => (
          <PostChunk
            key={i}
            ids={ids}
            eager={firstImage !== undefined && ids.includes(firstImage) ? firstImage : ''}
            reposters={ids.map((id) => (name === 'home' ? reposted[id]?.by : undefined))}
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
