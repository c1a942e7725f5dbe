import type { ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { Redirect, useLocation, useSearch } from 'wouter'
import { VisitorFrame } from '../components/visitor-frame.js'
import { paths } from '../paths.js'
import { session } from '../state/session.js'

type RequireAuthProps = {
  children: ReactNode
  /** What a visitor without an account reads instead, when this server lets them (PUBLIC_READ). */
  visitor?: ReactNode
}

/** The auth guard: a visitor goes to /login, which remembers the page they asked for, unless the page is open to them. */
export function RequireAuth({ children, visitor }: RequireAuthProps) {
  const { token, username } = useSnapshot(session)
  const [location] = useLocation()
  const search = useSearch()
  if (!token || !username) {
    const here = search ? `${location}?${search}` : location
    if (visitor) return <VisitorFrame here={here}>{visitor}</VisitorFrame>
    return <Redirect to={paths.login.href(here)} replace />
  }
  return children
}
