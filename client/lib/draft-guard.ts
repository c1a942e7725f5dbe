import { useEffect } from 'react'

/**
 * Which unsent texts are on screen (a reply, an edited comment), so that leaving the page can ask
 * first. Each form says only whether it holds a draft; the frame decides how to ask.
 */
const drafts = new Set<symbol>()
let askToLeave: ((href: string) => void) | null = null

/** Registers a draft while `active` holds (text typed and not sent). */
export function useDraftGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return
    const key = Symbol('draft')
    drafts.add(key)
    return () => void drafts.delete(key)
  }, [active])
}

export function hasDraft(): boolean {
  return drafts.size > 0
}

/** The frame's way of asking "Discard post?" before going to `href`; null when no frame is shown. */
export function setLeaveHandler(handler: ((href: string) => void) | null): void {
  askToLeave = handler
}

/** Goes to `href` at once, or first asks, when a draft would be lost. */
export function leaveTo(href: string, navigate: (href: string) => void): void {
  if (hasDraft() && askToLeave) askToLeave(href)
  else navigate(href)
}
