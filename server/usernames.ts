/**
 * How usernames are compared (docs/api-contract.md §4). Every comparison, from the
 * login limits to lookups and uniqueness on both stores, goes through usernameKey, so no two places can
 * disagree about who a name means.
 */

const MARKS = /\p{M}/gu

/**
 * The one normalisation of a username. JavaScript's toLowerCase and PostgreSQL's lower() disagree on
 * letters such as "İ" (U+0130, whose JavaScript lower case keeps a combining dot), the Kelvin sign
 * "K" (U+212A) and "ſ" (U+017F), so neither is trusted: the name is decomposed (NFKD), its marks are
 * dropped, and it is lower-, upper- and lower-cased again, which folds each of those to the ASCII letter
 * a stored username holds ("ẞ" and "ß" both to "ss"), and gives the same key when applied to a key. A
 * stored username is ASCII, where this is plain lower case.
 */
export function usernameKey(name: string): string {
  return name.normalize('NFKD').replace(MARKS, '').toLowerCase().toUpperCase().toLowerCase()
}

/**
 * The confusable skeleton of a username, in the manner of Unicode TS #39 for the look-alikes the ASCII
 * of a username allows: `I`, `l` and `1` alike, `O` and `0` alike, `rn` and `m` alike, without regard
 * to case. Two names with one skeleton read as the same name.
 */
export function usernameSkeleton(name: string): string {
  return usernameKey(name).replace(/[i1]/g, 'l').replaceAll('0', 'o').replaceAll('m', 'rn')
}

/**
 * The users, among `users` in the order they joined, whose skeleton an earlier one already has: accounts
 * made before look-alikes were refused, which keep their names while the earliest of each holds the
 * skeleton. `held` holds the skeletons of users before these, and gains these users' own.
 */
export function laterLookAlikes(
  users: readonly { _id: string; username: string }[],
  held = new Set<string>(),
): Set<string> {
  const later = new Set<string>()
  for (const user of users) {
    const skeleton = usernameSkeleton(user.username)
    if (held.has(skeleton)) later.add(user._id)
    else held.add(skeleton)
  }
  return later
}

/** The seeded demo account every visitor shares (docs/api-contract.md §4). */
const GUEST_USERNAME = 'guest'

export const isGuest = (user: { username: string }) => usernameKey(user.username) === GUEST_USERNAME
