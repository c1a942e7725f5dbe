import type { User } from '../schemas/users.js'
import type { StoreReader, UserRecord } from '../store/types.js'
import { ownBookmarks } from './post-views.js'
import { lookup, toUser, type UserLookup } from './views.js'
import { suspendedPeople } from './visibility.js'
import { shownTo } from './audience-reads.js'

/**
 * Everyone a set of users shows: themselves, whom they follow and who follows them, but for `suspended`,
 * whose follows do not count while the suspension lasts (DECISIONS §11): left out of the lookup, they
 * are left out of the follow lists and their counts.
 */
export async function usersOfUsers(
  store: StoreReader,
  people: readonly UserRecord[],
  suspended: ReadonlySet<string> = new Set(),
): Promise<UserLookup> {
  const ids = new Set<string>()
  for (const user of people) {
    ids.add(user._id)
    for (const id of user.following) if (!suspended.has(id)) ids.add(id)
    for (const id of user.followers) if (!suspended.has(id)) ids.add(id)
  }
  return lookup(store, ids)
}

/**
 * One person's record as `viewerId` finds it at `at` (theirs when it is their own): follows of people
 * suspended then are left out, and their posts are counted as their profile shows them to the viewer,
 * so the count tells of no post hidden from them (a list of people leaves it out: a count each).
 */
export async function userView(
  store: StoreReader,
  user: UserRecord,
  viewerId: string | undefined,
  at: Date,
): Promise<User> {
  const self = user._id === viewerId
  const [users, bookmarks, postCount] = await Promise.all([
    suspendedPeople(store, at).then((suspended) => usersOfUsers(store, [user], suspended)),
    self ? ownBookmarks(store, user._id) : [],
    store.countPosts(user._id, shownTo(viewerId)),
  ])
  return { ...toUser(user, users, self, bookmarks), postCount }
}
