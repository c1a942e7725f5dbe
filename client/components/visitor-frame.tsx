import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { paths } from '../paths.js'
import { Logo } from './logo.js'

/**
 * The frame of a page read without an account (PUBLIC_READ): the logo, Log in and Join, and a call to
 * join at the foot of the screen. `here` is the page, so that logging in or joining comes back to it.
 */
export function VisitorFrame({ here, children }: { here: string; children: ReactNode }) {
  return (
    <div className="visitor-frame">
      <header className="visitor-header">
        <Logo />
        <nav className="visitor-actions" aria-label="Account">
          <Link href={paths.login.href(here)} className="button outline small">
            Log in
          </Link>
          <Link href={paths.signup.href(here)} className="button primary small">
            Join Chirp
          </Link>
        </nav>
      </header>
      <main id="main" className="visitor-main" tabIndex={-1}>
        {children}
      </main>
      <aside className="join-bar" aria-label="Join Chirp">
        <p>
          <strong>Chirp is where people share short posts.</strong> Join to follow them, like and reply.
        </p>
        <Link href={paths.signup.href(here)} className="button join-button">
          Join Chirp
        </Link>
      </aside>
    </div>
  )
}
