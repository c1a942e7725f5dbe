import type { UserRecord, UserSummaryRecord } from './types.js'

/** Only what shows a person beside what they did, as PostgreSQL's getUserSummaries reads it. */
export const summaryOfRecord = ({ _id, username, firstName, lastName, avatarURL }: UserRecord): UserSummaryRecord => ({
  _id,
  username,
  firstName,
  lastName,
  avatarURL,
})
