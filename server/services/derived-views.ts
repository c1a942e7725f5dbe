import type { Post } from '../schemas/posts.js'

/**
 * Views made from a kept view with what one reader or one feed adds: the reader's own repost, and who
 * reposted the post into a home feed. Their bytes are the kept view's with those fields put in, kept
 * with the kept view by what was added, so a feed read again sends the same bytes without serialising.
 */
export interface Derived {
  base: Post
  extra: Partial<Pick<Post, 'reposted' | 'repostedBy' | 'repostedAt'>>
}
const derived = new WeakMap<Post, Derived>()

export const derivedFrom = (view: Post): Derived | undefined => derived.get(view)
const derivedBytes = new WeakMap<Post, Map<string, Buffer>>()
const REPOSTED_FALSE = '"reposted":false'

/** `base` with `extra`, its bytes made from the base view's (see keptJson). */
export function withFields(base: Post, extra: Derived['extra']): Post {
  const parent = derived.get(base)
  const made: Derived = parent ? { base: parent.base, extra: { ...parent.extra, ...extra } } : { base, extra }
  const view = { ...base, ...extra }
  derived.set(view, made)
  return view
}

/**
 * The kept view's bytes with the added fields: `reposted` set in place (its first occurrence is the
 * post's own, as the serialiser writes a quoted post after it), the repost's fields at the end. Undefined
 * when the kept view's bytes do not read as expected, and the view is then serialised as it is.
 */
export function derivedJson({ base, extra }: Derived, baseJson: (view: Post) => Buffer): Buffer | undefined {
  const key = JSON.stringify(extra)
  let kept = derivedBytes.get(base)
  const found = kept?.get(key)
  if (found) return found
  const text = baseJson(base).toString('utf8')
  const at = text.indexOf(REPOSTED_FALSE)
  if (at < 0 || !text.endsWith('}')) return undefined
  let json = extra.reposted ? `${text.slice(0, at)}"reposted":true${text.slice(at + REPOSTED_FALSE.length)}` : text
  if (extra.repostedBy && extra.repostedAt) {
    const { _id, username, firstName, lastName, avatarURL } = extra.repostedBy
    const by = JSON.stringify({ _id, username, firstName, lastName, avatarURL })
    json = `${json.slice(0, -1)},"repostedBy":${by},"repostedAt":${JSON.stringify(extra.repostedAt)}}`
  }
  const bytes = Buffer.from(json)
  if (!kept) derivedBytes.set(base, (kept = new Map<string, Buffer>()))
  kept.set(key, bytes)
  return bytes
}
