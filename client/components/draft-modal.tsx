import { useState, type ReactNode } from 'react'
import { ConfirmDialog } from './confirm-dialog.js'
import { Modal } from './modal.js'

const DISCARD_TITLE = 'Discard post?'
const DISCARD_TEXT = "This can't be undone and you'll lose your draft."

/** "Discard post?": asked before an unsent text is thrown away. */
export function DiscardDialog({ onDiscard, onCancel }: { onDiscard: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      title={DISCARD_TITLE}
      text={DISCARD_TEXT}
      confirmLabel="Discard"
      onConfirm={onDiscard}
      onCancel={onCancel}
    />
  )
}

type DraftModalProps = { title: string; dirty: boolean; onClose: () => void; children: ReactNode }

/** A modal holding a form: closing it (the X, Escape, the backdrop) with a draft in it asks first. */
export function DraftModal({ title, dirty, onClose, children }: DraftModalProps) {
  const [asking, setAsking] = useState(false)
  return (
    <>
      <Modal title={title} onClose={() => (dirty ? setAsking(true) : onClose())}>
        {children}
      </Modal>
      {asking && <DiscardDialog onDiscard={onClose} onCancel={() => setAsking(false)} />}
    </>
  )
}
