import { useEffect } from 'react'

/** 'Explore / Chirp': the page first, so tabs and history tell pages apart. */
export function formatTitle(page: string | null): string {
  return page ? `${page} / Chirp` : 'Chirp'
}

/** Sets the tab's title while the page is shown; null while what it names is still loading. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    document.title = formatTitle(page)
  }, [page])
}
