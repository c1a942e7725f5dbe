/** A load that failed, said once where the content should be, with the way to try again. */
export function LoadError({
  message,
  onRetry,
  small = false,
}: {
  message: string
  onRetry?: (() => void) | undefined
  small?: boolean
}) {
  return (
    <div className={small ? 'empty-state small' : 'empty-state'} role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button outline small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  )
}
