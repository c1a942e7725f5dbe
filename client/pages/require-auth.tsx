import type { ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { Redirect, useLocation, useSearch } from 'wouter'
import { paths } from '../paths.js'
import { session } from '../state/session.js'

/** The auth guard: a visitor goes to /login, which remembers the page they asked for. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { token, username } = useSnapshot(session)
  const [location] = useLocation()
  const search = useSearch()
  if (!token || !username) {
    return <Redirect to={paths.login.href(search ? `${location}?${search}` : location)} replace />
  }
  return children
}
