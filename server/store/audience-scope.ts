import { DEFAULT_VISIBILITY, isOpen } from '../../common/audience.js'
import type { AudienceScope, NotificationRecord, PostRecord } from './types.js'

type Audience = Pick<PostRecord, 'authorId' | 'visibility' | 'addressed'>

const visibilityOf = (post: Pick<Audience, 'visibility'>) => post.visibility ?? DEFAULT_VISIBILITY

/** Whether strangers may find the post where they browse: public posts alone (isListed). */
export const isPublic = (post: Pick<Audience, 'visibility'>) => visibilityOf(post) === 'public'

/**
 * Whether anyone at all may read the post, signed in or not: what may show as a repost (isShareable), and
 * all that someone not signed in may read.
 */
export const travels = (post: Pick<Audience, 'visibility'>) => isOpen(visibilityOf(post))

/** What a home feed shows of its own authors' posts (the reader and whom they follow): all but direct ones. */
const inFeed = (post: Pick<Audience, 'visibility'>) => visibilityOf(post) !== 'direct'

/**
 * The embedded store's reading of an AudienceScope: a test of one post, undefined when the scope keeps
 * every post. It says what services/audience.ts's mayRead and isListed say, as pg/audience-sql.ts does
 * in SQL; the contract suite holds the two stores to the same answers. `following` gives whom the
 * reader follows (a set is used as it is), asked once, and only when a `followers` post needs it.
 * `feedOf`: the scope is read for that reader's own home feed, whose authors they follow: a `followers`
 * post there is theirs to read, and nobody's follows are asked.
 */
export function audienceTest(
  scope: AudienceScope | undefined,
  following: (readerId: string) => ReadonlySet<string> | Iterable<string>,
  feedOf?: string,
): ((post: Audience) => boolean) | undefined {
  if (!scope) return undefined
  const readerId = scope.kind === 'listed' ? undefined : scope.readerId
  if (readerId === undefined) return scope.kind === 'readable' ? travels : isPublic
  if (scope.kind === 'shown' && feedOf === readerId) return inFeed
  let followed: ReadonlySet<string> | undefined
  const followSet = () => {
    const found = following(readerId)
    return found instanceof Set ? (found as ReadonlySet<string>) : new Set(found)
  }
  const follows = (authorId: string) => (followed ??= followSet()).has(authorId)
  const named = (post: Audience) => post.authorId === readerId || post.addressed?.includes(readerId) === true
  return (post) => {
    const visibility = visibilityOf(post)
    if (isOpen(visibility)) return true
    if (visibility === 'followers') return named(post) || follows(post.authorId)
    return scope.kind === 'readable' && named(post)
  }
}

/**
 * Which notifications their recipient is shown: one about a post only while they may read it (the
 * `readable` scope); `postOf` finds the post, and one no longer there leaves its notification shown.
 */
export function shownNotifications(
  userId: string,
  postOf: (id: string) => Audience | undefined,
  following: (readerId: string) => Iterable<string>,
): (notification: NotificationRecord) => boolean {
  const readable = audienceTest({ kind: 'readable', readerId: userId }, following) as (post: Audience) => boolean
  return (notification) => {
    const post = notification.postId === undefined ? undefined : postOf(notification.postId)
    return post === undefined || readable(post)
  }
}
