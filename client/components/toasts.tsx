import { CloseIcon } from './icon.js'

type ToastItem = {
  id: number
  kind: 'success' | 'error' | 'info'
  text: string
  dismissed: boolean
  action?: { readonly label: string } | undefined
}

type ToastsProps = { items: readonly ToastItem[]; onDismiss: (id: number) => void; onAction: (id: number) => void }

/** The stack of notifications; a dismissed one fades out before the state removes it. */
export function Toasts({ items, onDismiss, onAction }: ToastsProps) {
  return (
    <div className="toasts" aria-live="polite">
      {items.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.kind}${toast.dismissed ? ' is-leaving' : ''}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
        >
          <span className="toast-text">{toast.text}</span>
          {toast.action && (
            <button type="button" className="toast-action" onClick={() => onAction(toast.id)}>
              {toast.action.label}
            </button>
          )}
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss notification"
            onClick={() => onDismiss(toast.id)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  )
}
