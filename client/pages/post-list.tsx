import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import { snapshot, subscribe } from 'valtio'
import { EmptyState } from '../components/empty-state.js'
import { LoadError } from '../components/load-error.js'
import { NewPostsButton } from '../components/new-posts-button.js'
import { PostSkeleton } from '../components/post-skeleton.js'
import { Sentinel } from '../components/sentinel.js'
import { Spinner } from '../components/spinner.js'
import { PopoverHost } from '../components/use-popover.js'
import { useKeepPlace, useReturnPlace } from '../lib/reading-position.js'
import { useDrawnRange, type DrawnRange } from '../lib/use-drawn-count.js'
import { OffScreen } from '../lib/use-now.js'
import { lists, showWaitingPosts, type ListName } from '../state/lists.js'
import { postCache } from '../state/post-cache.js'
import { PostItem } from './post-item.js'
import type { UserSummary } from '../api/types.js'

/** Cards are drawn in groups of this many: a group whose posts stay the same is not drawn again. */
const CHUNK = 20
/** The height a card not drawn yet is given (posts.css's `contain-intrinsic-size` for a card). */
const CARD_PLACE = 180

/** The list's ids in groups of CHUNK, made again only when the list changes, not at each few cards drawn. */
function chunksOf(ids: readonly string[]): (readonly string[])[] {
  const chunks: (readonly string[])[] = []
  for (let start = 0; start < ids.length; start += CHUNK) chunks.push(ids.slice(start, start + CHUNK))
  return chunks
}

/**
 * The groups drawn so far, each with its place among all groups: whole ones as they are (the same arrays
 * from one draw to the next), and parts of the first and the last.
 */
function drawnChunks(chunks: readonly (readonly string[])[], { from, to }: DrawnRange): [number, readonly string[]][] {
  const shown: [number, readonly string[]][] = []
  for (let i = Math.floor(from / CHUNK); i * CHUNK < to; i++) {
    const ids = chunks[i] ?? []
    const start = Math.max(0, from - i * CHUNK)
    const end = Math.min(CHUNK, to - i * CHUNK)
    shown.push([i, start === 0 && end >= ids.length ? ids : ids.slice(start, end)])
  }
  return shown
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a === b || (a.length === b.length && a.every((id, i) => id === b[i]))

type Reposted = Readonly<Record<string, { readonly by: UserSummary } | undefined>>

/**
 * One group of cards. Drawing two more cards at post 500 then costs what it costs at post 20: only the
 * last group draws again, where the whole list used to, each time a few more cards were added.
 */
type ChunkProps = {
  ids: readonly string[]
  eager: string
  /** Who reposted what, when the home feed shows a post for that; null elsewhere. */
  reposted: Reposted | null
  showPinned: boolean
}

const sameChunk = (a: ChunkProps, b: ChunkProps) =>
  a.eager === b.eager &&
  a.showPinned === b.showPinned &&
  sameIds(a.ids, b.ids) &&
  (a.reposted === b.reposted || a.ids.every((id) => a.reposted?.[id]?.by === b.reposted?.[id]?.by))

/**
 * Each group is a box of its own that the browser skips whole while it is off screen
 * (`content-visibility: auto` on `.post-chunk`): at post 500 the browser lays out, walks for painting
 * and watches for visibility 25 boxes, not 500 cards. Like a card, a group is drawn in full while a
 * menu or emoji grid is open in it, which would otherwise be clipped at the group's edge.
 */
const PostChunk = memo(function PostChunk({ ids, eager, reposted, showPinned }: ChunkProps) {
  const [popovers, setPopovers] = useState(0)
  const onPopover = useCallback((open: boolean) => setPopovers((count) => count + (open ? 1 : -1)), [])
  // Whether the browser skips the group (off screen): its cards' times then wait for it to come back.
  const [skipped, setSkipped] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const group = ref.current
    if (!group) return
    const onChange = (event: Event) => setSkipped((event as ContentVisibilityAutoStateChangeEvent).skipped)
    group.addEventListener('contentvisibilityautostatechange', onChange)
    return () => group.removeEventListener('contentvisibilityautostatechange', onChange)
  }, [])
  return (
    <PopoverHost value={onPopover}>
      <OffScreen value={skipped}>
        <div ref={ref} className={popovers > 0 ? 'post-chunk has-popover' : 'post-chunk'}>
          {ids.map((id) => (
            <PostItem
              key={id}
              postId={id}
              eagerMedia={id === eager}
              repostedBy={reposted?.[id]?.by}
              showPinned={showPinned}
            />
          ))}
        </div>
      </OffScreen>
    </PopoverHost>
  )
}, sameChunk)

const watchLists = (onChange: () => void) => subscribe(lists, onChange)

/**
 * One list as it is now, and who reposted what (for the home feed), as plain snapshots: the same objects
 * until they change. The list draws again every few cards; a tracked snapshot would note each id read
 * in each of those draws, and the whole post cache's would walk every post held, both growing with the list.
 */
function useList(name: ListName) {
  const list = useSyncExternalStore(watchLists, () => snapshot(lists)[name])
  const reposted = useSyncExternalStore(watchLists, () => snapshot(lists).reposted)
  return { list, reposted }
}

/**
 * The first post with an image among the first group's, whose image loads at once: it is on the first
 * screen, where lazy loading only delays it. Read from the cache as the list draws (its posts are cached
 * before their ids join it), and only that far: an image further down is not on the first screen.
 */
function firstImageOf(ids: readonly string[]): string | undefined {
  return ids.slice(0, CHUNK).find((id) => postCache.byId[id]?.mediaUrl)
}

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
  const { list, reposted } = useList(name)
  const chunks = useMemo(() => chunksOf(list.items), [list.items])
  const firstImage = firstImageOf(list.items)
  // Coming back through the history, the list is drawn from the reader's place outwards, and kept there.
  const place = useReturnPlace()
  const [start] = useState(() => (place?.anchor ? list.items.indexOf(place.anchor.id) : -1))
  const drawn = useDrawnRange(list.items.length, start)
  const allDrawn = drawn.from === 0 && drawn.to === list.items.length
  useKeepPlace(place, start >= 0, `${drawn.from}-${drawn.to}`, list.loaded && allDrawn && list.items.length > 0)
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
        {/* Room for the cards above the place not drawn yet, so that the cards drawn stand where they will stay. */}
        {drawn.from > 0 && (
          <div className="post-list-room" aria-hidden="true" style={{ height: drawn.from * CARD_PLACE }} />
        )}
        {drawnChunks(chunks, drawn).map(([i, ids]) => (
          <PostChunk
            key={i}
            ids={ids}
            eager={i === 0 && firstImage !== undefined ? firstImage : ''}
            reposted={name === 'home' ? reposted : null}
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
