/**
 * `people` with `person` in it or without, as the server keeps such lists (likes, votes, follows): a newcomer
 * goes last. The same array when nothing changes, so a delta that repeats what the tab already shows (its
 * own optimistic click, say) is harmless.
 */
export function withPerson<T extends { _id: string }>(people: T[], person: T, present: boolean): T[] {
  const there = people.some((p) => p._id === person._id)
  if (present) return there ? people : [...people, person]
  return there ? people.filter((p) => p._id !== person._id) : people
}

/** Who wrote a post or a comment, as the record shows them. */
export type Author = { username: string; firstName: string; lastName: string; avatarURL: string }

/** A record by `author` takes their current name and avatar; anyone else's is left alone. */
export function renameBy(record: Author, author: Author): void {
  if (record.username !== author.username) return
  record.firstName = author.firstName
  record.lastName = author.lastName
  record.avatarURL = author.avatarURL
}
