import { Type, type Static } from '@sinclair/typebox'

/** How a person is shown beside what they did: on posts, comments, likes, votes and follow lists. */
export const UserSummarySchema = Type.Object(
  {
    _id: Type.String(),
    username: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    /** The name its owner chose to show; absent when none, and their first and last name show. */
    displayName: Type.Optional(Type.String()),
    avatarURL: Type.String(),
  },
  { title: 'UserSummary' },
)
export type UserSummary = Static<typeof UserSummarySchema>
