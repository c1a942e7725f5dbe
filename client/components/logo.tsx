import { Link } from 'wouter'
import { paths } from '../paths.js'

/** The Chirp mark; it always leads home. */
export function Logo() {
  return (
    <Link href={paths.home.href()} className="logo" aria-label="Chirp home">
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <circle cx="16" cy="16" r="16" className="logo-disc" />
        <path
          className="logo-bird"
          d="M9 19c3.5 1 7.5.3 10-2.3 1.8-1.9 2.5-4.2 2.4-6l2.4-1.4-2.7-.3A4.2 4.2 0 0 0 14 11.4c-2.1-.2-4-1.2-5.4-2.8-.8 1.7-.2 3.7 1.3 4.8-.7 0-1.3-.2-1.8-.5 0 1.8 1.3 3.3 3 3.7-.6.2-1.2.2-1.8.1.5 1.4 1.9 2.4 3.4 2.5A8.4 8.4 0 0 1 9 19z"
        />
      </svg>
      <span className="logo-word">Chirp</span>
    </Link>
  )
}
