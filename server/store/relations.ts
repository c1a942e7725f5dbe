import type { MuteRecord, Relation, Relations, UserRecord } from './types.js'

/**
 * Blocks and mutes as the embedded store keeps them, on the records of whoever blocks or mutes: what
 * its reads make of them. A timed mute past its end is simply not in effect, and is dropped at its
 * muter's next mute.
 */
export const isRunning = (mute: MuteRecord, at: string) => mute.until === undefined || mute.until > at

export const runningMutes = (user: UserRecord | undefined, at: string): MuteRecord[] =>
  (user?.muting ?? []).filter((mute) => isRunning(mute, at))

export const relationsIn = (user: UserRecord | undefined, blockedBy: Iterable<string>, at: string): Relations => ({
  blocking: [...(user?.blocking ?? [])],
  blockedBy: [...blockedBy],
  muting: runningMutes(user, at),
})

/**
 * Follow requests as the embedded store keeps them, on the record of whoever is asked: which of `users`
 * the follower asked to follow.
 */
export const requestedIn = (users: readonly UserRecord[], followerId: string): Set<string> =>
  new Set(users.filter((user) => user.followRequests?.includes(followerId)).map((user) => user._id))

/** The record with `followRequests` as given, left out when empty. */
export function withFollowRequests(user: UserRecord, followRequests: readonly string[]): UserRecord {
  const { followRequests: _before, ...rest } = user
  return followRequests.length > 0 ? { ...rest, followRequests } : rest
}

export const relationOf = (viewer: UserRecord | undefined, other: UserRecord | undefined, at: string): Relation => ({
  blocks: other !== undefined && (viewer?.blocking ?? []).includes(other._id),
  blockedBy: viewer !== undefined && (other?.blocking ?? []).includes(viewer._id),
  mutes: other !== undefined && runningMutes(viewer, at).some((mute) => mute.userId === other._id),
})
