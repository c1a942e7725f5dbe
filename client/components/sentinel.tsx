import { useEffect, useLayoutEffect, useRef } from 'react'

/**
 * An empty marker at the end of a list; each time it scrolls into view `onVisible` asks for more.
 * The observer is rebuilt when `active` changes, so a page that ends with the sentinel still
 * on screen triggers again once the previous load has finished.
 */
export function Sentinel({ active, onVisible }: { active: boolean; onVisible: () => void }) {
  const ref = useRef<HTMLDivElement>(null)
  const callback = useRef(onVisible)
  useLayoutEffect(() => {
    callback.current = onVisible
  })

  useEffect(() => {
    const element = ref.current
    if (!active || !element || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current()
      },
      { rootMargin: '400px 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [active])

  return <div ref={ref} className="sentinel" aria-hidden="true" />
}
