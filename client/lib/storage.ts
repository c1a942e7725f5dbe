/**
 * Everything the client keeps in localStorage. The session is kept under `token` and `username`
 * (docs/api-contract.md §4).
 * Storage can throw (private mode, quota, disabled cookies), so every access is guarded.
 */
const TOKEN = 'token'
const USERNAME = 'username'
const SORT = 'feedSort'
const DRAFT = 'composerDraft'

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // Without storage the session simply lasts until the tab closes.
  }
}

export function readSession(): { token: string; username: string } | null {
  const token = read(TOKEN)
  const username = read(USERNAME)
  return token && username ? { token, username } : null
}

export function writeSession(token: string, username: string): void {
  write(TOKEN, token)
  write(USERNAME, username)
}

export function clearSession(): void {
  write(TOKEN, null)
  write(USERNAME, null)
  // A draft belongs to the account that wrote it, not to the next one on this browser.
  write(DRAFT, null)
}

export function readToken(): string | null {
  return read(TOKEN)
}

export function readSort(): string | null {
  return read(SORT)
}

export function writeSort(sort: string): void {
  write(SORT, sort)
}

export type StoredDraft = { content: string; media: readonly { url: string; alt: string }[] }

/** The draft's images: `media`, or the one image a draft kept before posts had several. */
function storedImages(record: Record<string, unknown>): StoredDraft['media'] {
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  if (Array.isArray(record.media)) {
    return record.media.flatMap((image: unknown) => {
      const { url, alt } = (typeof image === 'object' && image !== null ? image : {}) as Record<string, unknown>
      return text(url) ? [{ url: text(url), alt: text(alt) }] : []
    })
  }
  return text(record.mediaUrl) ? [{ url: text(record.mediaUrl), alt: text(record.mediaAlt) }] : []
}

/** The home composer's unsent text and images, kept across reloads until it is sent. */
export function readDraft(): StoredDraft | undefined {
  try {
    const value: unknown = JSON.parse(read(DRAFT) ?? 'null')
    if (typeof value !== 'object' || value === null) return undefined
    const record = value as Record<string, unknown>
    return { content: typeof record.content === 'string' ? record.content : '', media: storedImages(record) }
  } catch {
    return undefined
  }
}

export function writeDraft(draft: StoredDraft): void {
  const empty = draft.content === '' && draft.media.length === 0
  write(DRAFT, empty ? null : JSON.stringify({ content: draft.content, media: draft.media }))
}
