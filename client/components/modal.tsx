import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { CloseIcon } from './icon.js'

const FOCUSABLE = 'a[href], button:not([disabled]), textarea, input, select, [tabindex]:not([tabindex="-1"])'

type ModalProps = {
  title: string
  onClose: () => void
  children: ReactNode
  /**
   * 'form' (the default) fills a phone's screen; 'question' is a small alert dialog that needs an
   * answer before anything else; 'media' shows one image large on a dark backdrop.
   */
  variant?: 'form' | 'question' | 'media'
}

const BACKDROP = { form: 'modal-backdrop', question: 'modal-backdrop is-compact', media: 'modal-backdrop is-media' }

/** Modals can stack (a confirmation over the composer); the page may scroll again only when the last closes. */
let openModals = 0

/**
 * A modal dialog: focus moves into it on open, Tab stays inside, Escape or a click on the
 * backdrop closes it, and focus returns to whatever opened it.
 */
export function Modal({ title, onClose, children, variant = 'form' }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null)
  const titleId = useId()

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const dialog = dialogRef.current
    const inBody = dialog?.querySelector<HTMLElement>(`.modal-body :is(${FOCUSABLE})`)
    ;(inBody ?? dialog)?.focus()
    openModals += 1
    document.body.classList.add('has-modal')
    return () => {
      openModals -= 1
      if (openModals === 0) document.body.classList.remove('has-modal')
      opener?.focus()
    }
  }, [])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      onClose()
    } else if (event.key === 'Tab') {
      const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE))
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault()
        first.focus()
      }
    }
  }

  return createPortal(
    <div className={BACKDROP[variant]} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        className="modal"
        role={variant === 'question' ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        {/* Not a <header>: in a portal under <body> that would be a second banner landmark. */}
        <div className="modal-header">
          <h2 id={titleId} className={variant === 'media' ? 'visually-hidden' : undefined}>
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="modal-body">{children}</div>
      </div>
    </div>,
    document.body,
  )
}
