import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react'

/**
 * Told when a popover opens inside it (and when it closes again): a post card draws itself in full
 * while one is open, since its containment would clip the panel at its edge. A class the card sets
 * is what its styles read, where a `:has()` rule would make the browser look through every card of a
 * long list each time something in one of them changed.
 */
export const PopoverHost = createContext<((open: boolean) => void) | null>(null)

/**
 * Open/close for a button and the panel it controls: a click outside or Escape closes it,
 * and Escape gives focus back to the button so a keyboard user is never stranded.
 */
export function usePopover<Panel extends HTMLElement>() {
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<Panel>(null)
  const host = useContext(PopoverHost)

  useEffect(() => {
    if (!open || !host) return
    host(true)
    return () => host(false)
  }, [open, host])

  const close = useCallback((refocus: boolean) => {
    setOpen(false)
    if (refocus) buttonRef.current?.focus()
  }, [])

  useEffect(() => {
    if (!open) return
    const onPointer = (event: MouseEvent) => {
      const target = event.target as Node
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation()
        close(true)
      }
    }
    document.addEventListener('mousedown', onPointer)
    panelRef.current?.addEventListener('keydown', onKey)
    const panel = panelRef.current
    return () => {
      document.removeEventListener('mousedown', onPointer)
      panel?.removeEventListener('keydown', onKey)
    }
  }, [open, close])

  return { open, setOpen, close, buttonRef, panelRef }
}

/** Moves focus among the focusable items of a panel with the arrow keys, Home and End. */
export function moveFocus(panel: HTMLElement, key: string, selector: string): boolean {
  const items = Array.from(panel.querySelectorAll<HTMLElement>(selector))
  if (items.length === 0) return false
  const index = items.indexOf(document.activeElement as HTMLElement)
  const last = items.length - 1
  const next: Record<string, number> = {
    ArrowDown: index >= last ? 0 : index + 1,
    ArrowRight: index >= last ? 0 : index + 1,
    ArrowUp: index <= 0 ? last : index - 1,
    ArrowLeft: index <= 0 ? last : index - 1,
    Home: 0,
    End: last,
  }
  const target = next[key]
  if (target === undefined) return false
  items[target]?.focus()
  return true
}
