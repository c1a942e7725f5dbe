import { useEffect, useRef } from 'react'
import { useLocation } from 'wouter'

/** Whether this tab has moved within the app since it loaded, so that Back can return to that page. */
let movedInApp = false

/** Notes every move after the first page; the app calls it once, at its root. */
export function useNavigationTracking(): void {
  const [location] = useLocation()
  const first = useRef(location)
  useEffect(() => {
    if (location !== first.current) movedInApp = true
  }, [location])
}

/**
 * Back as people expect it: to the page they came from in the app, or, when this page was opened
 * directly (a shared link), home rather than out of the app.
 */
export function goBack(navigate: (href: string) => void, fallback: string): void {
  if (movedInApp) window.history.back()
  else navigate(fallback)
}
