import { Link } from 'wouter'
import { paths } from '../paths.js'

/**
 * Chirp's mark, on a 32-unit square: a speech bubble with a call sounding out of it (a dot and two
 * arcs). client/public/favicon.svg and icon.svg draw the same shapes, and the install icons are
 * rendered from icon.svg (`npm run icons`).
 */
export const MARK = {
  bubble: 'M13.5 7.5h5a6.75 6.75 0 0 1 0 13.5h-4.9l-5.1 3.9 1.1-4.6A6.75 6.75 0 0 1 13.5 7.5z',
  waves: ['M15.6 11.9a3.4 3.4 0 0 1 0 4.7', 'M18.3 9.9a6.2 6.2 0 0 1 0 8.7'],
  dot: { cx: 12.9, cy: 14.25, r: 1.35 },
} as const

/** The Chirp mark and name; it always leads home. */
export function Logo() {
  return (
    <Link href={paths.home.href()} className="logo" aria-label="Chirp home">
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <circle cx="16" cy="16" r="16" className="logo-disc" />
        <path className="logo-bubble" d={MARK.bubble} />
        {MARK.waves.map((d) => (
          <path key={d} className="logo-wave" d={d} />
        ))}
        <circle className="logo-dot" {...MARK.dot} />
      </svg>
      <span className="logo-word">Chirp</span>
    </Link>
  )
}
