import { CloseIcon } from './icons.js'

export type ToastItem = { id: number; kind: 'success' | 'error' | 'info'; text: string; dismissed: boolean }

/** The stack of notifications; a dismissed one fades out before the state removes it. */
export function Toasts({ items, onDismiss }: { items: readonly ToastItem[]; onDismiss: (id: number) => void }) {
  return (
    <div className="toasts" aria-live="polite">
      {items.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.kind}${toast.dismissed ? ' is-leaving' : ''}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
        >
          <span className="toast-text">{toast.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => onDismiss(toast.id)}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  )
}
