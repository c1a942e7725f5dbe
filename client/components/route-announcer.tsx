import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'

/** How long to wait for a new page's heading: its code and its data may still be on their way. */
const WAIT_STEPS = 40
const STEP_MS = 100

/**
 * After each navigation (not the first page), moves the focus to the new page's heading (unless the
 * reader is typing in a field, as in the search box that took them there), so keyboard
 * and screen-reader users start at the top of what changed, and announces the page's title in a
 * polite live region, as a full page load would have.
 */
export function RouteAnnouncer() {
  const [location] = useLocation()
  const [message, setMessage] = useState('')
  const first = useRef(location)

  useEffect(() => {
    if (location === first.current) return
    first.current = ''
    let steps = 0
    let timer: ReturnType<typeof setTimeout>
    const settle = () => {
      const heading = document.querySelector<HTMLElement>('main h1, .center-page h1')
      if (!heading && ++steps < WAIT_STEPS) {
        timer = setTimeout(settle, STEP_MS)
        return
      }
      // Typing in a field that moved the reader here (the search box): the text keeps the caret.
      const typing =
        document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLTextAreaElement
      if (heading && !typing) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
        heading.focus({ preventScroll: true })
      }
      setMessage(document.title)
    }
    timer = setTimeout(settle, STEP_MS)
    return () => clearTimeout(timer)
  }, [location])

  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  )
}
