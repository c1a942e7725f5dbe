import { Type, type Static } from '@sinclair/typebox'
import { DateTimeSchema, NextCursorSchema } from './common.js'
import { UserSummarySchema } from './user-summary.js'

/** Blocks and mutes (docs/api-contract.md §11). */

/** The longest mute that ends, in seconds: ten years, so an end always fits a date. */
export const MAX_MUTE_SECONDS = 315_360_000

/** A mute for `duration` seconds; 0 or none for ever. */
export const MuteBodySchema = Type.Object({
  duration: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_MUTE_SECONDS })),
})
export type MuteBody = Static<typeof MuteBodySchema>

/** The person blocked, unblocked, muted or unmuted. */
export const RelationReplySchema = Type.Object({ user: UserSummarySchema })

export const BlocksReplySchema = Type.Object({ users: Type.Array(UserSummarySchema), nextCursor: NextCursorSchema })

/** A muted person, with when the mute ends (null: until unmuted). */
const MutedUserSchema = Type.Composite([
  UserSummarySchema,
  Type.Object({ mutedUntil: Type.Union([DateTimeSchema, Type.Null()]) }),
])
export const MutesReplySchema = Type.Object({ users: Type.Array(MutedUserSchema), nextCursor: NextCursorSchema })
