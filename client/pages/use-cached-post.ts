import { useEffect, useReducer } from 'react'
import { proxy, useSnapshot } from 'valtio'
import type { Post } from '../api/types.js'
import type { PostView } from '../lib/model.js'
import { postCache, watchCachedSlot } from '../state/post-cache.js'

/** Stands in while the id has no post, as a snapshot needs something to watch. */
const NO_POST = proxy({})

/**
 * One cached post, watched on its own: a card draws again when its post changes, or when another post
 * takes its id, and not when other posts join the cache. A whole-cache snapshot would be compared by
 * every card each time a page of posts arrives, which grows with the list; so would a watcher of the
 * whole cache, called for each post written.
 */
export function useCachedPost(postId: string): PostView | undefined {
  const [, replaced] = useReducer((count: number) => count + 1, 0)
  useEffect(() => watchCachedSlot(postId, replaced), [postId])
  const target: Post | undefined = postCache.byId[postId]
  const snapshot = useSnapshot(target ?? NO_POST)
  return target ? (snapshot as PostView) : undefined
}
