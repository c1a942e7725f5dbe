import { proxy } from 'valtio'
import {
  apiBlockUser,
  apiGetBlocks,
  apiGetMutes,
  apiMuteUser,
  apiUnblockUser,
  apiUnmuteUser,
} from '../api/relations.js'
import type { MutedUser, UserSummary } from '../api/types.js'
import { apiGetUser } from '../api/users.js'
import { comments } from './comments.js'
import { postCache } from './post-cache.js'
import { removePost } from './posts.js'
import { showError, showToast } from './toasts.js'

/** Whom the signed-in person blocks and mutes, as Settings lists them (the 100 most recent of each). */
const initial = () => ({
  blocks: [] as UserSummary[],
  mutes: [] as MutedUser[],
  loaded: false,
  error: false,
})

export const relations = proxy(initial())

const LISTED = 100

export async function loadRelations(): Promise<void> {
  try {
    const [blocks, mutes] = await Promise.all([apiGetBlocks({ limit: LISTED }), apiGetMutes({ limit: LISTED })])
    Object.assign(relations, { blocks: blocks.users, mutes: mutes.users, loaded: true, error: false })
  } catch (error) {
    relations.error = true
    showError(error)
  }
}

/** Takes the person's posts and comments out of everything this tab shows; a live `user.blocked` or `user.muted` too. */
export function hidePerson(username: string): void {
  for (const post of Object.values(postCache.byId)) if (post.username === username) removePost(post._id)
  for (const post of Object.values(postCache.byId)) if (post.quote?.username === username) post.quote = null
  for (const post of Object.values(postCache.byId)) {
    const kept = post.comments.filter((comment) => comment.username !== username)
    if (kept.length !== post.comments.length) post.comments = kept
  }
  for (const read of Object.values(comments.byPost)) {
    const kept = read.items.filter((comment) => comment.username !== username)
    if (kept.length !== read.items.length) read.items = kept
  }
}

async function attempt(write: () => Promise<unknown>, done: string): Promise<boolean> {
  try {
    await write()
    showToast(done, 'success')
    return true
  } catch (error) {
    showError(error)
    return false
  }
}

/**
 * Blocks or mutes someone known by their username (a post or a comment names its author so); a mute
 * for `duration` seconds when given, else until unmuted.
 */
export async function restrictPerson(kind: 'block' | 'mute', username: string, duration?: number): Promise<boolean> {
  const ok = await attempt(
    async () => {
      const { _id } = await apiGetUser(username)
      await (kind === 'block' ? apiBlockUser(_id) : apiMuteUser(_id, duration))
    },
    `@${username} is ${kind === 'block' ? 'blocked' : 'muted'}`,
  )
  if (ok) hidePerson(username)
  return ok
}

export async function unblockPerson(user: UserSummary): Promise<void> {
  if (await attempt(() => apiUnblockUser(user._id), `@${user.username} is unblocked`))
    relations.blocks = relations.blocks.filter((other) => other._id !== user._id)
}

export async function unmutePerson(user: UserSummary): Promise<void> {
  if (await attempt(() => apiUnmuteUser(user._id), `@${user.username} is unmuted`))
    relations.mutes = relations.mutes.filter((other) => other._id !== user._id)
}

export function reset(): void {
  Object.assign(relations, initial())
}
