/**
 * The scopes of Mastodon's OAuth (DECISIONS §13): four top-level ones, and the sub-scopes each covers.
 * `follow` is Mastodon's older scope for relationships, which covers blocks, follows and mutes both ways.
 */
const SUB_SCOPES = {
  read: [
    'accounts',
    'blocks',
    'bookmarks',
    'favourites',
    'filters',
    'follows',
    'lists',
    'mutes',
    'notifications',
    'search',
    'statuses',
  ],
  write: [
    'accounts',
    'blocks',
    'bookmarks',
    'conversations',
    'favourites',
    'filters',
    'follows',
    'lists',
    'media',
    'mutes',
    'notifications',
    'reports',
    'statuses',
  ],
} as const

const FOLLOW_COVERS = new Set([
  'read:blocks',
  'write:blocks',
  'read:follows',
  'write:follows',
  'read:mutes',
  'write:mutes',
])

type ReadScope = `read:${(typeof SUB_SCOPES.read)[number]}`
type WriteScope = `write:${(typeof SUB_SCOPES.write)[number]}`
/** A scope a route may require. */
export type Scope = 'read' | 'write' | 'follow' | 'push' | 'profile' | ReadScope | WriteScope

const TOP_SCOPES: readonly Scope[] = ['read', 'write', 'follow', 'push']

/** Every scope an app may ask for. */
export const KNOWN_SCOPES: ReadonlySet<string> = new Set([
  ...TOP_SCOPES,
  'profile',
  ...SUB_SCOPES.read.map((sub) => `read:${sub}`),
  ...SUB_SCOPES.write.map((sub) => `write:${sub}`),
])

/** Asked for nothing, an app gets `read`, as on Mastodon. */
const DEFAULT_SCOPES: readonly string[] = ['read']

/** The scopes of a space-separated list (`+` too, as some clients send it), in order, each once; undefined when one is unknown. */
export function parseScopes(text: string | undefined): string[] | undefined {
  const words = (text ?? '').split(/[\s+]+/).filter((word) => word !== '')
  if (words.length === 0) return [...DEFAULT_SCOPES]
  if (!words.every((word) => KNOWN_SCOPES.has(word))) return undefined
  return [...new Set(words)]
}

/** Whether scopes granted include `required`: itself, or the top scope it belongs to (`profile` is in `read:accounts`). */
export function covers(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true
  const [top] = required.split(':')
  if (required.includes(':') && top !== undefined && granted.includes(top)) return true
  if (FOLLOW_COVERS.has(required) && granted.includes('follow')) return true
  return required === 'profile' && covers(granted, 'read:accounts')
}

/** Whether every scope asked for is within what the app registered. */
export const withinScopes = (asked: readonly string[], registered: readonly string[]) =>
  asked.every((scope) => KNOWN_SCOPES.has(scope) && covers(registered, scope as Scope))
