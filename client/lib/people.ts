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

/** How a person shows: their names, the one they chose (absent when none) and their avatar. */
type Names = { firstName: string; lastName: string; displayName?: string | undefined; avatarURL: string }

/** Who wrote a post or a comment, as the record shows them. */
export type Author = Names & { username: string }

/** `to` takes the names and avatar of `from`; a display name cleared goes, as the server leaves it out then. */
export function takeNames(to: Names, from: Names): void {
  to.firstName = from.firstName
  to.lastName = from.lastName
  to.avatarURL = from.avatarURL
  if (from.displayName) to.displayName = from.displayName
  else delete to.displayName
}

/** A record by `author` takes their current names and avatar; anyone else's is left alone. */
export function renameBy(record: Author, author: Author): void {
  if (record.username === author.username) takeNames(record, author)
}

/** The usernames of a "To" field: words split by spaces or commas, each once, without their `@`. */
export function recipientsOf(text: string): string[] {
  const names = text
    .split(/[\s,]+/)
    .map((word) => word.replace(/^@/, ''))
    .filter(Boolean)
  return [...new Set(names)]
}

/** How long a message to these people may be: a post's limit, less the mention of each that opens it. */
export function messageRoom(recipients: readonly string[], limit: number): number {
  return recipients.reduce((room, name) => room - name.length - 2, limit)
}
