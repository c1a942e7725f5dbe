import type { ReactNode } from 'react'

type FilteredPostProps = {
  /** The titles of the reader's `warn` filters the post matches; none: the post shows as it is. */
  titles: readonly string[]
  /** Whether the reader chose to see it anyway. */
  shown: boolean
  onShow: () => void
  /** Whose post it is, to name the collapsed card. */
  author: string
  children: ReactNode
}

/**
 * A post one of the reader's `warn` keyword filters matches (DECISIONS §15), collapsed to the filter's title
 * until "Show anyway": the post itself is not drawn, so neither eyes nor a screen reader meet it first.
 */
export function FilteredPost({ titles, shown, onShow, author, children }: FilteredPostProps) {
  if (titles.length === 0 || shown) return <>{children}</>
  const label = `Filtered: ${titles.join(', ')}`
  return (
    <article className="post-card post-filtered" aria-label={`Filtered post by ${author}`}>
      <p className="post-spoiler">
        <span className="post-spoiler-text">{label}</span>{' '}
        <button type="button" className="button outline small" aria-label={`Show anyway: ${label}`} onClick={onShow}>
          Show anyway
        </button>
      </p>
    </article>
  )
}
