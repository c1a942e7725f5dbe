import type { ReactNode } from 'react'
import { Modal } from './modal.js'

type ConfirmDialogProps = {
  title: string
  text: string
  confirmLabel: string
  onConfirm: () => void
  onCancel: () => void
  /** Red for what destroys something; plain for what only ends something, like a session. */
  tone?: 'danger' | 'plain'
  /** A choice the question offers (such as how long a mute lasts), between the text and the answers. */
  children?: ReactNode
}

/**
 * Asks before something that cannot be undone. Cancel comes before the confirmation and takes the
 * focus (or the choice offered above it does, which Enter does not answer), so a stray Enter keeps
 * things as they are; Escape and the backdrop cancel too.
 */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  onConfirm,
  onCancel,
  tone = 'danger',
  children,
}: ConfirmDialogProps) {
  return (
    <Modal title={title} variant="question" onClose={onCancel}>
      <p className="confirm-text">{text}</p>
      {children}
      <div className="row-end confirm-actions">
        <button type="button" className="button outline" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={tone === 'danger' ? 'button danger' : 'button dark'} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  )
}
