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
