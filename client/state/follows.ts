import { proxy } from 'valtio'
import { apiAnswerFollowRequest, apiGetFollowRequests } from '../api/follow-requests.js'
import type { AudienceEventPayloads, EventPayloads, UserSummary } from '../api/types.js'
import { mentionsIn } from '../../common/text-rules.js'
import { lists, loadProfilePosts } from './lists.js'
import { emptyPaged, loadPaged } from './paged.js'
import { postCache } from './post-cache.js'
import { removePost } from './posts.js'
import { session } from './session.js'
import { showError, showToast } from './toasts.js'
import { applyFollow, editProfile, isFollowing, queueFollow, summaryOf } from './users.js'

/**
 * Who may follow me and whom I follow, as audiences make it matter (DECISIONS §12): the requests waiting
 * for my answer while my account is locked, and what an unfollow takes off the screen at once.
 */

const PAGE = 20

const initial = () => ({
  /** The people asking to follow me, the oldest request first. */
  requests: emptyPaged<UserSummary>('mine'),
  /** Requests whose answer is on its way, by the asker's id. */
  answering: {} as Record<string, true>,
})

export const follows = proxy(initial())

export function loadFollowRequests(more = false): Promise<void> {
  return loadPaged(follows, 'requests', 'mine', more, async (cursor) => {
    const reply = await apiGetFollowRequests({ limit: PAGE, cursor })
    return { items: reply.users, nextCursor: reply.nextCursor }
  })
}

/** A live `follow_request.created`: the asker joins the end of the list shown (the oldest come first). */
export function receiveFollowRequest({ user }: AudienceEventPayloads['follow_request.created']): void {
  const { requests } = follows
  if (!requests.loaded) return void loadFollowRequests()
  if (requests.items.some((asker) => asker._id === user._id)) return
  // Past what is loaded, the request comes with a later page.
  if (requests.done) requests.items.push(user)
}

/** Accepts or rejects `asker`'s request; they leave the list either way. Resolves whether it was answered. */
export async function answerFollowRequest(asker: UserSummary, accept: boolean): Promise<boolean> {
  follows.answering[asker._id] = true
  try {
    await apiAnswerFollowRequest(asker._id, accept ? 'authorize' : 'reject')
    follows.requests.items = follows.requests.items.filter((other) => other._id !== asker._id)
    const me = session.user
    // My followers count shows the new one at once; the live user.followed that follows changes nothing more.
    if (accept && me) applyFollow({ user: summaryOf(asker), followUser: summaryOf(me) }, true)
    showToast(accept ? `@${asker.username} now follows you` : `You rejected @${asker.username}'s request`, 'success')
    return true
  } catch (error) {
    showError(error, undefined, accept ? 'accept the request' : 'reject the request')
    return false
  } finally {
    delete follows.answering[asker._id]
  }
}

/**
 * Locks or unlocks my account. Unlocking accepts every request still waiting (DECISIONS §12), so the list
 * is read again, empty.
 */
export async function setAccountLocked(locked: boolean): Promise<boolean> {
  const done = await editProfile({ locked })
  if (done && !locked) follows.requests = emptyPaged<UserSummary>('mine')
  return done
}

/**
 * Once I stop following `username`, their followers-only posts are no longer mine to read: they leave
 * every list and the cache at once, and a quote of one reads as unavailable. A post of theirs that
 * mentions me stays (it was addressed to me), and so does everything of mine. The server may say the
 * same with a `post.deleted` per post; applying both is harmless.
 */
function hideFollowersPostsOf(username: string): void {
  const me = session.username
  if (!me || username === me) return
  const addressedToMe = (content: string) => mentionsIn(content).some((names) => names.includes(me))
  const hidden = (post: { username: string; visibility: string; content: string }) =>
    post.username === username && post.visibility === 'followers' && !addressedToMe(post.content)
  for (const post of Object.values(postCache.byId)) if (hidden(post)) removePost(post._id)
  for (const post of Object.values(postCache.byId)) if (post.quote && hidden(post.quote)) post.quote = null
}

/**
 * Follows, asks to follow (a locked account), unfollows or withdraws a request, at once (users.ts queues
 * it); once an unfollow is made, the person's followers-only posts leave the screen.
 */
export async function toggleFollow(userId: string, person?: UserSummary & { locked?: boolean }): Promise<void> {
  const followed = session.user?.following.find((user) => user._id === userId)
  await queueFollow(userId, person)
  if (followed && !isFollowing(userId)) hideFollowersPostsOf(followed.username)
}

/**
 * A live follow or unfollow. One of mine made elsewhere (another tab), or a request of mine accepted,
 * changes what I may read: an unfollow hides the person's followers-only posts, and a follow reads their
 * open profile again for the posts it now shows.
 */
export function applyLiveFollow(data: EventPayloads['user.followed'], followed: boolean): void {
  const mine = data.user._id === session.user?._id
  applyFollow(data, followed)
  if (!mine) return
  const { username } = data.followUser
  if (!followed) hideFollowersPostsOf(username)
  else if (lists.profile.loaded && lists.profile.key === username) void loadProfilePosts(username)
}

export function reset(): void {
  Object.assign(follows, initial())
}
