/**
 * Who may read a post (DECISIONS §12), from the widest audience to the narrowest:
 * - `public`: everyone, everywhere;
 * - `unlisted`: everyone who opens it or its author's profile, and the author's followers' home feeds,
 *   but never Explore, tag pages, search or public pages' lists;
 * - `followers`: the author's followers and the people it mentions, nobody else;
 * - `direct`: only the people it mentions (a direct message).
 */
export const VISIBILITIES = ['public', 'unlisted', 'followers', 'direct'] as const
export type Visibility = (typeof VISIBILITIES)[number]

/** What a post without a chosen audience, and an account without a chosen default, get. */
export const DEFAULT_VISIBILITY: Visibility = 'public'

/**
 * Who may quote a person's posts, old and new (DECISIONS §15): anyone who may read them, only their
 * followers, or nobody but themselves.
 */
export const QUOTE_POLICIES = ['anyone', 'followers', 'nobody'] as const
export type QuotePolicy = (typeof QUOTE_POLICIES)[number]

/** Whether anyone at all may read the post: the audiences a stranger, signed in or not, sees. */
export const isOpen = (visibility: Visibility) => visibility === 'public' || visibility === 'unlisted'
