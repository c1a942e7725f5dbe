import type { User } from '../schemas/users.js'
import type { StoreReader, UserRecord } from '../store/types.js'
import { ownBookmarks } from './post-views.js'
import { lookup, toUser, type UserLookup } from './views.js'
import { suspendedPeople } from './visibility.js'

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
 * One person's record as `at` finds them: follows of people suspended then are left out, and the true number
 * of their posts is counted (a list of people leaves it out: a count each).
 */
export async function userView(store: StoreReader, user: UserRecord, self: boolean, at: Date): Promise<User> {
  const [users, bookmarks, postCount] = await Promise.all([
    suspendedPeople(store, at).then((suspended) => usersOfUsers(store, [user], suspended)),
    self ? ownBookmarks(store, user._id) : [],
    store.countPosts(user._id),
  ])
  return { ...toUser(user, users, self, bookmarks), postCount }
}
