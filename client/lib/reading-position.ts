import { useLayoutEffect, useRef, useState } from 'react'

/**
 * Where the reader stood on each address they scrolled, so that Back (or Forward) puts them where they
 * were, as Mastodon, Bluesky and Phanpy do: the list keeps the pages it had loaded, and the page its place.
 *
 * A place is a post and how far from the top of the window it stood (the post opened, when it was on
 * screen, or else the one a quarter of the way down), with the page's scroll as well for pages without
 * posts. A scroll alone does not find the post again: a long list is drawn a part at a time and the
 * browser skips laying out the groups of cards off screen (`content-visibility`), so the same scroll
 * falls on another post until everything above it has been drawn and laid out.
 */
export interface Place {
  y: number
  anchor?: { id: string; top: number }
}

const positions = new Map<string, Place>()
/** Set by a move through the history (Back, Forward): the place to go back to, once the list is drawn. */
let pending: Place | null = null
/** Whether the page shown was reached through the history, until its list has been taken up again. */
let returning = false
/** The post the reader last clicked or tapped: the one they opened, when they leave. */
let touched: string | null = null

const address = () => window.location.pathname + window.location.search
const POST = '[data-post-id]'

/** The post to come back to: the one touched last if it is on screen, else the one a quarter of the way down. */
function anchorOnScreen(): Place['anchor'] {
  const height = window.innerHeight
  const onScreen = (card: Element | null | undefined) => {
    const box = card?.getBoundingClientRect()
    return box && box.bottom > 0 && box.top < height ? box : undefined
  }
  const opened = touched === null ? null : document.querySelector(`${POST}[data-post-id="${CSS.escape(touched)}"]`)
  const openedBox = onScreen(opened)
  if (opened && openedBox) return { id: touched as string, top: openedBox.top }
  const list = document.querySelector('.post-list')?.getBoundingClientRect()
  if (!list) return undefined
  const card = document.elementFromPoint(list.left + list.width / 2, height / 4)?.closest(POST)
  const box = onScreen(card)
  const id = card?.getAttribute('data-post-id')
  return box && id ? { id, top: box.top } : undefined
}

/**
 * Starts noting places; main.tsx calls it once, before the app draws. A place is read as the reader
 * leaves an address, not at each scroll: reading `scrollY` or a box makes the browser lay out first
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
    positions.set(shown, { y: window.scrollY, anchor: anchorOnScreen() })
    shown = address()
    touched = null
  }
  document.addEventListener(
    'click',
    (event) => {
      touched = (event.target as Element | null)?.closest?.(POST)?.getAttribute('data-post-id') ?? null
    },
    true,
  )
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

/** The place the page being drawn is coming back to, once: the next page to ask gets none. */
function takePlace(): Place | null {
  const place = pending
  pending = null
  return place
}

/** The place this page is coming back to, taken when it is first drawn (later moves do not change it). */
export function useReturnPlace(): Place | null {
  const [place] = useState(takePlace)
  return place
}

/** Whether the reader has moved the page themselves since this was called (a wheel, a touch, a key, a press). */
function watchReaderScroll(): { moved: () => boolean; stop: () => void } {
  let moved = false
  const mark = () => (moved = true)
  const events = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const
  for (const name of events) window.addEventListener(name, mark, { passive: true, capture: true })
  return {
    moved: () => moved,
    stop: () => {
      for (const name of events) window.removeEventListener(name, mark, { capture: true })
    },
  }
}

/**
 * Keeps the page where the reader was while the list draws around the place: each time more is drawn
 * (`drawnKey` changes), the anchor post is put back at the height it had, until `settled` (all drawn) or
 * the reader scrolls. Without an anchor on the list, the scroll is restored once everything is drawn.
 */
export function useKeepPlace(place: Place | null, anchored: boolean, drawnKey: string, settled: boolean): void {
  const state = useRef<{ done: boolean; reader: ReturnType<typeof watchReaderScroll> | null }>({
    done: place === null,
    reader: null,
  })
  useLayoutEffect(() => {
    const keep = state.current
    if (keep.done || !place) return
    keep.reader ??= watchReaderScroll()
    const finish = () => {
      keep.done = true
      keep.reader?.stop()
    }
    if (keep.reader.moved()) return finish()
    const card =
      anchored && place.anchor ? document.querySelector(`${POST}[data-post-id="${CSS.escape(place.anchor.id)}"]`) : null
    if (card && place.anchor) {
      const off = card.getBoundingClientRect().top - place.anchor.top
      if (Math.abs(off) >= 1) window.scrollBy(0, off)
      if (settled) finish()
    } else if (settled) {
      window.scrollTo(0, place.y)
      finish()
    }
  }, [place, anchored, drawnKey, settled])
  useLayoutEffect(() => () => state.current.reader?.stop(), [])
}
