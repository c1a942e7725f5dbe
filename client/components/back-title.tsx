import type { ReactNode } from 'react'
import { BackIcon } from './icons.js'

/** A page's title with Back before it (and, after it, what the page adds: a menu). */
export function BackTitle({ title, onBack, children }: { title: string; onBack: () => void; children?: ReactNode }) {
  return (
    <div className="page-title with-back">
      <button type="button" className="icon-button" aria-label="Back" onClick={onBack}>
        <BackIcon />
      </button>
      <h1>{title}</h1>
      {children}
    </div>
  )
}
