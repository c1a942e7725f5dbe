import { lazy, type ReactElement, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { Redirect, useLocation, useSearch } from 'wouter'
import { paths } from '../paths.js'
import { session } from '../state/session.js'

type RequireAuthProps = {
  children: ReactNode
  /** What a visitor without an account reads instead, when this server lets them (PUBLIC_READ). */
  visitor?: ReactElement | false
}

/**
 * The frame of a page read without an account, fetched only when one is: a signed-in start (and the
 * login page) never needs it, and it stays out of the code every first visit downloads.
 */
const VisitorFrame = lazy(() => import('../components/visitor-frame.js').then((m) => ({ default: m.VisitorFrame })))

/** The auth guard: a visitor goes to /login, which remembers the page they asked for, unless the page is open to them. */
export function RequireAuth({ children, visitor }: RequireAuthProps) {
  const { token, username } = useSnapshot(session)
  const [location] = useLocation()
  const search = useSearch()
  if (!token || !username) {
    const here = search ? `${location}?${search}` : location
    if (visitor) {
      // The page's code is fetched beside the frame's, not once the frame has arrived and been drawn.
      ;(visitor.type as { preload?: () => unknown }).preload?.()
      return <VisitorFrame here={here}>{visitor}</VisitorFrame>
    }
    return <Redirect to={paths.login.href(here)} replace />
  }
  return children
}
