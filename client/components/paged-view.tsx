import type { ReactNode } from 'react'
import { EmptyState } from './empty-state.js'
import { LoadError } from './load-error.js'
import { Sentinel } from './sentinel.js'
import { Spinner } from './spinner.js'

/** What a paged list shows of its state (state/paged.ts). */
type PagedState = {
  readonly items: readonly unknown[]
  readonly loading: boolean
  readonly loaded: boolean
  readonly done: boolean
  readonly error: string | null
  readonly retryable: boolean
}

type PagedViewProps = {
  state: PagedState
  /** The list's accessible name. */
  label: string
  empty: string
  end: string
  /** The first page again (false), or the next (true). */
  onLoad: (more: boolean) => void
  /** The items, each an <li>. */
  children: ReactNode
}

/** A list read a page at a time: a spinner, the error with Try again, the items, more as the end comes into view. */
export function PagedView({ state, label, empty, end, onLoad, children }: PagedViewProps) {
  const retry = (more: boolean) => (state.retryable ? () => onLoad(more) : undefined)
  if (state.items.length === 0) {
    if (state.error) return <LoadError message={state.error} onRetry={retry(false)} />
    if (!state.loaded || state.loading) return <Spinner label={`Loading ${label.toLowerCase()}`} />
    return <EmptyState text={empty} />
  }
  return (
    <>
      <ul className="moderation-list" aria-label={label}>
        {children}
      </ul>
      {state.loading && <Spinner />}
      {state.error && <LoadError message={state.error} onRetry={retry(true)} />}
      {!state.done && <Sentinel active={!state.loading && !state.error} onVisible={() => onLoad(true)} />}
      {state.done && <p className="end-text">{end}</p>}
    </>
  )
}
