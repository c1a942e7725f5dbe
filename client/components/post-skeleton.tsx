/**
 * Grey shapes where the first posts will be, so a list that is loading already looks like itself and
 * nothing jumps when it arrives. Screen readers hear only that posts are loading.
 */
export function PostSkeleton({ count = 3, label = 'Loading posts' }: { count?: number; label?: string }) {
  return (
    <div className="skeleton-list" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="skeleton-card" aria-hidden="true">
          <span className="skeleton skeleton-avatar" />
          <span className="skeleton-lines">
            <span className="skeleton skeleton-line is-short" />
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-line is-mid" />
          </span>
        </div>
      ))}
    </div>
  )
}
