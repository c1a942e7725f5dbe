import { emojiLookup, userWithEmojis } from './custom-emojis.js'
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
 * Which of `people` the viewer asked to follow and waits for (DECISIONS §12); none for a reader not signed
 * in. Only a locked account has requests waiting (unlocking accepts them all), so a page of open accounts
 * asks the store nothing.
 */
export async function requestedOf(
  store: StoreReader,
  viewerId: string | undefined,
  people: readonly UserRecord[],
): Promise<ReadonlySet<string>> {
  // A person of another server answers every follow (DECISIONS §14): a request may wait for any of them.
  const locked = people.filter((user) => (user.locked || user.remote) && user._id !== viewerId).map((user) => user._id)
  if (viewerId === undefined || locked.length === 0) return new Set()
  return store.requestedAmong(viewerId, locked)
}

/**
 * One person's record as `viewerId` (signed in or not) finds them at `at`: follows of people suspended
 * then are left out, and their posts are counted as their profile shows them to the viewer, so the count
 * tells of no post hidden from them (a list of people leaves it out: a count each). Their own record
 * shows what only they see.
 */
export async function userView(
  store: StoreReader,
  user: UserRecord,
  viewerId: string | undefined,
  at: Date,
  { bookmarks: withBookmarks = true } = {},
): Promise<User> {
  const self = user._id === viewerId
  const [users, bookmarks, postCount, requested, known] = await Promise.all([
    suspendedPeople(store, at).then((suspended) => usersOfUsers(store, [user], suspended)),
    self && withBookmarks ? ownBookmarks(store, user._id) : [],
    store.countPosts(user._id, shownTo(viewerId)),
    requestedOf(store, viewerId, [user]),
    emojiLookup(store),
  ])
  return userWithEmojis({ ...toUser(user, users, self, bookmarks, requested.has(user._id)), postCount }, known)
}

/** A list of other people as `viewerId` finds them at `at`, without their post counts. */
export async function usersView(
  store: StoreReader,
  people: readonly UserRecord[],
  viewerId: string | undefined,
  at: Date,
): Promise<User[]> {
  const [users, requested, known] = await Promise.all([
    suspendedPeople(store, at).then((suspended) => usersOfUsers(store, people, suspended)),
    requestedOf(store, viewerId, people),
    people.length === 0 ? new Map<string, string>() : emojiLookup(store),
  ])
  return people.map((user) => userWithEmojis(toUser(user, users, false, [], requested.has(user._id)), known))
}
