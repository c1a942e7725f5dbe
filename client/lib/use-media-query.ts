import { useCallback, useSyncExternalStore } from 'react'

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function'

/**
 * Whether the window matches a CSS media query, kept current as the window changes. Without
 * matchMedia (a test's DOM) everything matches, so every part of the page is drawn.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!hasMatchMedia()) return () => {}
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  const read = () => !hasMatchMedia() || window.matchMedia(query).matches
  return useSyncExternalStore(subscribe, read, read)
}
