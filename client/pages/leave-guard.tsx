import { useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { DiscardDialog } from '../components/draft-modal.js'
import { hasDraft, setLeaveHandler } from '../lib/draft-guard.js'

/** The address of an ordinary in-app link click, or null for anything the browser should handle itself. */
function inAppHref(event: MouseEvent): string | null {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return null
  const link = (event.target as Element | null)?.closest?.('a[href]')
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self')) return null
  // A link that opens something over the page (an image) rather than leaving it.
  if (link.dataset.stay !== undefined) return null
  const url = new URL(link.href, window.location.href)
  if (url.origin !== window.location.origin) return null
  return url.pathname + url.search + url.hash
}

/**
 * Leaving a page with an unsent reply or comment asks "Discard post?" first: in-app links (caught
 * before the router sees the click), the keyboard shortcuts and card clicks (through `leaveTo`), and
 * closing or reloading the tab (the browser's own question).
 */
export function LeaveGuard() {
  const [pending, setPending] = useState<string | null>(null)
  const [location, navigate] = useLocation()

  useEffect(() => {
    setLeaveHandler(setPending)
    const onClick = (event: MouseEvent) => {
      if (!hasDraft()) return
      const href = inAppHref(event)
      if (href === null || href === location) return
      event.preventDefault()
      event.stopPropagation()
      setPending(href)
    }
    const onUnload = (event: BeforeUnloadEvent) => {
      if (hasDraft()) event.preventDefault()
    }
    document.addEventListener('click', onClick, true)
    window.addEventListener('beforeunload', onUnload)
    return () => {
      setLeaveHandler(null)
      document.removeEventListener('click', onClick, true)
      window.removeEventListener('beforeunload', onUnload)
    }
  }, [location])

  if (pending === null) return null
  return (
    <DiscardDialog
      onCancel={() => setPending(null)}
      onDiscard={() => {
        setPending(null)
        navigate(pending)
      }}
    />
  )
}
