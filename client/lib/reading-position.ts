import { useEffect, useRef } from 'react'

/**
 * Where the reader stood on each address they scrolled, so that Back (or Forward) puts them where they
 * were, as Mastodon, Bluesky and Phanpy do: the list keeps the pages it had loaded, and the page its scroll.
 */
const positions = new Map<string, number>()
/** Set by a move through the history (Back, Forward): the position to go back to, once the list is drawn. */
let pending: number | null = null
/** Whether the page shown was reached through the history, until its list has been taken up again. */
let returning = false

const address = () => window.location.pathname + window.location.search

/**
 * Starts noting positions; main.tsx calls it once, before the app draws. A position is read as the
 * reader leaves an address, not at each scroll: reading `scrollY` makes the browser lay out first
 * whatever changed since the last frame, and a long list that grows as it is scrolled would be laid out
 * again at every scroll event.
 */
export function watchReadingPosition(): void {
  // The browser would scroll before the list is drawn again, and so land short of where the reader was.
  window.history.scrollRestoration = 'manual'
  // The address whose page is on screen: when the event of a move comes, the address has changed already.
  let shown = address()
  // The page on screen is still the one left, and still scrolled as the reader left it.
  const leave = () => {
    positions.set(shown, window.scrollY)
    shown = address()
  }
  window.addEventListener('popstate', () => {
    leave()
    returning = true
    pending = positions.get(shown) ?? null
  })
  // wouter announces its own moves as `pushState`: a new page starts at its top.
  window.addEventListener('pushState', () => {
    leave()
    returning = false
    pending = null
    window.scrollTo(0, 0)
  })
  // The same page under a new address (a search as it is typed) keeps its place.
  window.addEventListener('replaceState', () => {
    shown = address()
  })
}

/**
 * Whether a list may be shown as it was left rather than read afresh: true once after a move through
 * the history, for the first list the page asks for.
 */
export function takeReturn(): boolean {
  const was = returning
  returning = false
  return was
}

/** Scrolls back to where the reader was on this address, once `ready` (the list is drawn whole again). */
export function useReadingPosition(ready: boolean): void {
  // Taken when the page is first drawn: later scrolls of this address must not move it.
  const target = useRef(pending)
  useEffect(() => {
    if (target.current === null || !ready) return
    window.scrollTo(0, target.current)
    target.current = null
    pending = null
  }, [ready])
}
