/** Whether the browser offers its own share sheet, as phones do (and a few desktops). */
export function hasShareSheet(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function'
}

export type ShareOutcome = 'shared' | 'copied' | 'cancelled'

/**
 * Hands a link to the share sheet where there is one, and copies it otherwise. Closing the sheet is the
 * reader's choice and ends there; a sheet that refuses (not allowed here, nothing to share with) falls
 * back to the copy. Rejects only when the link could not be copied either.
 */
export async function shareLink(link: { url: string; title: string }): Promise<ShareOutcome> {
  if (hasShareSheet()) {
    try {
      await navigator.share(link)
      return 'shared'
    } catch (error) {
      if ((error as { name?: unknown } | null)?.name === 'AbortError') return 'cancelled'
    }
  }
  await navigator.clipboard.writeText(link.url)
  return 'copied'
}
