import type { UserRecord } from '../types.js'

export interface FollowEdge {
  follower: string
  followee: string
}

/**
 * Every follow of a set of users, in an order that keeps each user's `following` list and each user's
 * `followers` list in its own order once both are read back by one sequence number per follow.
 *
 * A follow made through the store is the last of both lists at once, so the lists of live data always
 * agree on one order, and this finds it (a topological order of "comes before" within each list).
 * Lists written by hand (the seed builds `followers` by account order) may contradict each other; then
 * the follow that comes earliest in the `following` lists goes first, and each `following` order wins.
 * Follows of unknown users are left out; a follow present in only one of the two lists is kept.
 */
export function followOrder(users: readonly UserRecord[]): FollowEdge[] {
  const known = new Set(users.map((user) => user._id))
  const edges: FollowEdge[] = []
  const index = new Map<string, number>()
  const edgeOf = (follower: string, followee: string): number | undefined => {
    if (follower === followee || !known.has(follower) || !known.has(followee)) return undefined
    const key = `${follower} ${followee}`
    let at = index.get(key)
    if (at === undefined) {
      at = edges.push({ follower, followee }) - 1
      index.set(key, at)
    }
    return at
  }
  const lists: number[][] = []
  const listOf = (ids: readonly (number | undefined)[]) =>
    lists.push([...new Set(ids.filter((id) => id !== undefined))])
  for (const user of users) listOf(user.following.map((followee) => edgeOf(user._id, followee)))
  for (const user of users) listOf(user.followers.map((follower) => edgeOf(follower, user._id)))

  // Each edge has at most two successors: the next one in its follower's list and in its followee's.
  const next: number[][] = edges.map(() => [])
  const waiting = new Int32Array(edges.length)
  for (const list of lists) {
    for (let i = 1; i < list.length; i++) {
      const before = list[i - 1] as number
      const after = list[i] as number
      next[before]?.push(after)
      waiting[after] = (waiting[after] ?? 0) + 1
    }
  }
  const done = new Uint8Array(edges.length)
  const order: FollowEdge[] = []
  const ready: number[] = []
  for (let i = 0; i < edges.length; i++) if (waiting[i] === 0) ready.push(i)
  let head = 0
  let lowest = 0
  while (order.length < edges.length) {
    let edge: number
    if (head < ready.length) {
      edge = ready[head++] as number
    } else {
      // Every edge left waits on another: the lists contradict each other. The first one left goes next.
      while (done[lowest]) lowest++
      edge = lowest
    }
    if (done[edge]) continue
    done[edge] = 1
    order.push(edges[edge] as FollowEdge)
    for (const after of next[edge] as number[]) {
      const left = (waiting[after] ?? 0) - 1
      waiting[after] = left
      if (left === 0) ready.push(after)
    }
  }
  return order
}
