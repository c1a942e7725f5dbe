import { DEFAULT_VISIBILITY, isOpen, type Visibility } from '../../common/audience.js'

/** What decides who may read a post: its author, its audience and whom it addressed (DECISIONS §12). */
export interface Audience {
  readonly authorId: string
  readonly visibility?: Visibility
  readonly addressed?: readonly string[]
}

export const visibilityOf = (post: Pick<Audience, 'visibility'>): Visibility => post.visibility ?? DEFAULT_VISIBILITY

/** Whether the post addressed the reader by name when it was written. */
export const addresses = (post: Audience, readerId: string) => post.addressed?.includes(readerId) === true

/**
 * The rule every read path keeps, the stores' list reads included: whether `readerId` (undefined: not
 * signed in) may read the post, `followsAuthor` saying whether they follow its author (an accepted
 * follow; a pending request is not one). Blocks, mutes and suspensions are services/visibility.ts's.
 */
export function mayRead(post: Audience, readerId: string | undefined, followsAuthor: boolean): boolean {
  const visibility = visibilityOf(post)
  if (isOpen(visibility)) return true
  if (readerId === undefined) return false
  if (readerId === post.authorId || addresses(post, readerId)) return true
  return visibility === 'followers' && followsAuthor
}

/** Whether the post may show where strangers browse: Explore, tag pages, search, trends, public pages' lists. */
export const isListed = (post: Pick<Audience, 'visibility'>) => visibilityOf(post) === 'public'

/** Whether others may repost or quote it: only what anyone may read travels further. */
export const isShareable = (post: Pick<Audience, 'visibility'>) => isOpen(visibilityOf(post))
