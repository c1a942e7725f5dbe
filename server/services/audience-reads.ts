import { MSG, notFound } from '../errors.js'
import type { AudienceScope, StoreReader } from '../store/types.js'
import { addresses, mayRead, visibilityOf, type Audience } from './audience.js'

/**
 * How the read paths keep to audiences (DECISIONS §12): lists ask the store for a scope (store/types.ts,
 * AudienceScope), which it keeps inside the query; a read of posts already in hand asks mayRead here.
 */

/** Where strangers browse: Explore, trending, tag pages, search and public pages' lists, public posts alone. */
export const LISTED: AudienceScope = { kind: 'listed' }

/** What a profile, its pinned posts and a home feed show the reader (undefined: nobody signed in). */
export const shownTo = (readerId: string | undefined): AudienceScope => ({ kind: 'shown', readerId })

/** Every post the reader may read now: the likes and bookmarks lists. */
export const readableBy = (readerId: string | undefined): AudienceScope => ({ kind: 'readable', readerId })

/**
 * Which of `posts` the reader may read now, in their order. Whom they follow is read in one call, and
 * only when a `followers` post that does not name them asks.
 */
export async function readableOf<T extends Audience>(
  store: StoreReader,
  posts: readonly T[],
  readerId: string | undefined,
): Promise<T[]> {
  const asked =
    readerId === undefined
      ? []
      : posts.filter(
          (post) => visibilityOf(post) === 'followers' && post.authorId !== readerId && !addresses(post, readerId),
        )
  const authors = [...new Set(asked.map((post) => post.authorId))]
  const followed =
    readerId === undefined || authors.length === 0 ? new Set<string>() : await store.followedAmong(readerId, authors)
  return posts.filter((post) => mayRead(post, readerId, followed.has(post.authorId)))
}

/**
 * Refuses with the 404 of a post that is not there a reader who may not read it: its page, its comments
 * and likers, and whatever would answer with it (a like, a comment, a bookmark, a vote).
 */
export async function checkMayRead(store: StoreReader, post: Audience, readerId: string | undefined): Promise<void> {
  if ((await readableOf(store, [post], readerId)).length === 0) throw notFound(MSG.postNotFound)
}
