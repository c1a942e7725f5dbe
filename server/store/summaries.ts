import type { AccountRecord, UserRecord, UserSummaryRecord } from './types.js'

/** Only what shows a person beside what they did, as PostgreSQL's getUserSummaries reads it. */
export const summaryOfRecord = ({
  _id,
  username,
  firstName,
  lastName,
  displayName,
  avatarURL,
  quotePolicy,
}: UserRecord): UserSummaryRecord => ({
  _id,
  username,
  firstName,
  lastName,
  ...(displayName ? { displayName } : {}),
  avatarURL,
  ...(quotePolicy ? { quotePolicy } : {}),
})

/** The record without its lists, as PostgreSQL's getAccount reads it. */
export function accountOf(user: UserRecord | undefined): AccountRecord | undefined {
  if (!user) return undefined
  const {
    bookmarks: _b,
    following: _following,
    followers: _followers,
    blocking: _bl,
    muting: _m,
    twoFactor: _t,
    actorKeys: _k,
    followRequests: _r,
    places: _p,
    directConversations: _c,
    filters: _f,
    lists: _l,
    scheduledPosts: _s,
    ...account
  } = user
  return account
}
