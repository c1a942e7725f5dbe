/** The pulsing indicator shown while posts load. */
export function Spinner({ label = 'Loading posts' }: { label?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner-dot" />
      <span className="spinner-dot" />
      <span className="spinner-dot" />
      <span className="visually-hidden">{label}</span>
    </div>
  )
}
