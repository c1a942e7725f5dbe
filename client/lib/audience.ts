import type { QuotePolicy, Visibility } from '../../common/audience.js'

/** One audience as the client names and explains it (DECISIONS §12). */
type Audience = {
  value: Visibility
  /** The picker's option. */
  label: string
  /** What a post's badge says of it, for a post that is not public. */
  badge: string
  /** What choosing it means, under the picker. */
  hint: string
}

/** The four audiences, from the widest to the narrowest. */
export const AUDIENCES: readonly Audience[] = [
  {
    value: 'public',
    label: 'Public',
    badge: 'Public',
    hint: 'Anyone can see it, on your profile, in feeds, on Explore, in search and on tag pages.',
  },
  {
    value: 'unlisted',
    label: 'Unlisted',
    badge: 'Unlisted',
    hint: 'Anyone can see it on your profile and your followers in their feeds, but it stays out of Explore, search and tag pages.',
  },
  {
    value: 'followers',
    label: 'Followers only',
    badge: 'Followers only',
    hint: 'Only your followers and the people you mention can see it. Nobody can repost it.',
  },
  {
    value: 'direct',
    label: 'Direct',
    badge: 'Direct message',
    hint: 'Only the people you mention can see it, in their Messages. Mention them with @username.',
  },
]

export function audienceOf(visibility: Visibility): Audience {
  return AUDIENCES.find((audience) => audience.value === visibility) ?? (AUDIENCES[0] as Audience)
}

/** Why this reader may not repost a post, or quote it, or both, when they may not. */
export type ShareLimit = { repost?: string; quote?: string }

/** Who may quote a post by its author's quote controls (DECISIONS §15), as the post says it. */
type QuoteRule = { policy: QuotePolicy | undefined; followsAuthor: boolean }

/**
 * Why a post cannot be reposted or quoted by this reader, if it cannot: followers-only and direct posts
 * are never reposted, and only their author may quote them; beyond that, its author's quote controls
 * may keep everyone but their followers, or everyone, from quoting it.
 */
export function sharingLimit(
  visibility: Visibility,
  mine: boolean,
  quoting: QuoteRule = { policy: undefined, followsAuthor: false },
): ShareLimit | null {
  if (visibility === 'followers' || visibility === 'direct') {
    const what = visibility === 'followers' ? 'A followers-only post' : 'A direct message'
    const repost = `${what} can't be reposted.`
    return mine ? { repost } : { repost, quote: `${what} can't be reposted or quoted.` }
  }
  if (mine || quoting.policy === undefined || quoting.policy === 'anyone') return null
  if (quoting.policy === 'followers' && quoting.followsAuthor) return null
  return {
    quote: quoting.policy === 'followers' ? 'Only followers can quote this post.' : "This post can't be quoted.",
  }
}
