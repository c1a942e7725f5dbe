import { proxy } from 'valtio'
import { errorMessage } from '../api/http.js'
import type { User, UserEdit } from '../api/types.js'
import { apiEditUser, apiFollowUser, apiGetSuggestions, apiGetUser, apiUnfollowUser } from '../api/users.js'
import { updateAuthor } from './post-cache.js'
import { session, setCurrentUser } from './session.js'
import { showError } from './toasts.js'

const SUGGESTIONS = 5

const initial = () => ({
  /** Profiles seen so far, by username. */
  byUsername: {} as Record<string, User>,
  /** The profile on screen: the route's username and, once loaded, the record's own spelling of it. */
  profile: { username: '', resolved: '', loading: false, error: null as string | null },
  suggestions: [] as User[],
  suggestionsLoaded: false,
  suggestionsError: null as string | null,
  /** User ids with a follow or unfollow on its way, so a second click cannot race the first. */
  pending: {} as Record<string, boolean>,
})

export const users = proxy(initial())

/** Takes a user's current record everywhere it shows; also what a live `user.*` event applies. */
export function applyUser(user: User): void {
  users.byUsername[user.username] = user
  const suggested = users.suggestions.findIndex((u) => u._id === user._id)
  if (suggested !== -1) users.suggestions[suggested] = user
  setCurrentUser(user)
  updateAuthor(user)
}

export function isFollowing(userId: string): boolean {
  return session.user?.following.some((u) => u._id === userId) ?? false
}

export async function loadProfile(username: string): Promise<void> {
  users.profile = { username, resolved: '', loading: true, error: null }
  try {
    const user = await apiGetUser(username)
    applyUser(user)
    if (users.profile.username === username) users.profile = { username, resolved: user.username, loading: false, error: null }
  } catch (error) {
    if (users.profile.username === username) {
      users.profile = { username, resolved: '', loading: false, error: errorMessage(error) }
    }
  }
}

export async function loadSuggestions(): Promise<void> {
  try {
    users.suggestions = await apiGetSuggestions(SUGGESTIONS)
    users.suggestionsError = null
  } catch (error) {
    // Shown in the panel, where Try again is.
    users.suggestionsError = errorMessage(error)
  } finally {
    users.suggestionsLoaded = true
  }
}

/** Follows when not following and unfollows when following; both users' records come back updated. */
export async function toggleFollow(userId: string): Promise<void> {
  if (users.pending[userId]) return
  users.pending[userId] = true
  try {
    const reply = await (isFollowing(userId) ? apiUnfollowUser(userId) : apiFollowUser(userId))
    applyUser(reply.user)
    applyUser(reply.followUser)
  } catch (error) {
    showError(error, () => void toggleFollow(userId))
  } finally {
    delete users.pending[userId]
  }
}

export async function editProfile(edit: UserEdit): Promise<boolean> {
  try {
    applyUser(await apiEditUser(edit))
    return true
  } catch (error) {
    showError(error)
    return false
  }
}

export function reset(): void {
  Object.assign(users, initial())
}
