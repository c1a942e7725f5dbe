import { useEffect } from 'react'

/** What the tab's title is made of: the page shown and the unread notifications, set apart by whoever knows each. */
const title = { page: null as string | null, unread: 0 }

/** '(3) Explore / Chirp': the unread count first, as other social apps do, then the page, so tabs and history tell pages apart. */
function formatTitle(page: string | null, unread = 0): string {
  const base = page ? `${page} / Chirp` : 'Chirp'
  return unread > 0 ? `(${unread}) ${base}` : base
}

function write(): void {
  document.title = formatTitle(title.page, title.unread)
}

/** Sets the tab's title while the page is shown; null while what it names is still loading. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    title.page = page
    write()
  }, [page])
}

/** Puts the unread count in front of every page's title, for as long as the caller (the signed-in frame) is shown. */
export function useTitleCount(unread: number): void {
  useEffect(() => {
    title.unread = unread
    write()
    return () => {
      title.unread = 0
      write()
    }
  }, [unread])
}
