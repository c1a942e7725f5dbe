import type { User } from '../schemas/users.js'
import type { StoreReader, UserRecord } from '../store/types.js'
import { ownBookmarks } from './post-views.js'
import { lookup, toUser, type UserLookup } from './views.js'

/** Everyone a set of users shows: themselves, whom they follow and who follows them. */
export async function usersOfUsers(store: StoreReader, people: readonly UserRecord[]): Promise<UserLookup> {
  const ids = new Set<string>()
  for (const user of people) {
    ids.add(user._id)
    for (const id of user.following) ids.add(id)
    for (const id of user.followers) ids.add(id)
  }
  return lookup(store, ids)
}

/** One person's record, with the true number of their posts (a list of people leaves it out: a count each). */
export async function userView(store: StoreReader, user: UserRecord, self: boolean): Promise<User> {
  const [users, bookmarks, postCount] = await Promise.all([
    usersOfUsers(store, [user]),
    self ? ownBookmarks(store, user._id) : [],
    store.countPosts(user._id),
  ])
  return { ...toUser(user, users, self, bookmarks), postCount }
}
