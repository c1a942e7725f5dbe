import { proxy } from 'valtio'
import { errorMessage, errorStatus, isRetryable } from '../api/http.js'
import type { EventPayloads, FollowAnswer, ProfileEdit, User, UserSummary } from '../api/types.js'
import {
  apiDismissSuggestion,
  apiEditUser,
  apiFollowUser,
  apiGetSuggestions,
  apiGetUser,
  apiUnfollowUser,
} from '../api/users.js'
import { takeNames, withPerson, type Author } from '../lib/people.js'
import { renameCommenter } from './comments.js'
import { updateAuthor } from './post-cache.js'
import { changeCurrentUser, session, setCurrentUser, type CurrentUser } from './session.js'
import { showError } from './toasts.js'
import { toggleQueue } from './toggle-queue.js'

const SUGGESTIONS = 5

const initial = () => ({
  /** Profiles seen so far, by username. */
  byUsername: {} as Record<string, User>,
  /** The profile on screen: the route's username and, once loaded, the record's own spelling of it. */
  profile: { username: '', resolved: '', loading: false, error: null as string | null, retryable: true },
  suggestions: [] as User[],
  suggestionsLoaded: false,
  suggestionsError: null as string | null,
  /** User ids with a follow or unfollow on its way (a click meanwhile joins its queue). */
  pending: {} as Record<string, boolean>,
  /** Locked accounts I asked to follow, by id, while the request waits for their answer (DECISIONS §12). */
  requested: {} as Record<string, true>,
  /**
   * Raised each time whom I follow changed on the server, by a follow's answer here or a live event of
   * another tab's: what shows others' posts or suggests people reads again then.
   */
  followsVersion: 0,
})

export const users = proxy(initial())

/** A person's current name and avatar on every post and comment of theirs the tab holds. */
function renameAuthor(author: Author): void {
  updateAuthor(author)
  renameCommenter(author)
}

/** Whether I asked to follow `userId` (a locked account) and wait for the answer; what a view of them says. */
function noteRequested(user: User): void {
  if (user._id === session.user?._id) return
  if (user.requested) users.requested[user._id] = true
  else delete users.requested[user._id]
}

/** Takes a user's current record everywhere it shows. */
function applyUser(user: User): void {
  noteRequested(user)
  // A profile never shows bookmarks, and my own are kept in the session: no second copy of up to 1,000 posts.
  const profile = { ...user, bookmarks: [] }
  users.byUsername[user.username] = profile
  const suggested = users.suggestions.findIndex((u) => u._id === user._id)
  if (suggested !== -1) users.suggestions[suggested] = profile
  setCurrentUser(user)
  renameAuthor(user)
}

/** A user record this tab holds: my own, a profile seen, or a suggestion. */
type HeldUser = User | CurrentUser

/** Applies a live delta to every record held; a user the tab has not seen stays unseen. */
function changeHeldUsers(change: (user: HeldUser) => void): void {
  for (const user of Object.values(users.byUsername)) change(user)
  for (const user of users.suggestions) change(user)
  changeCurrentUser(change)
}

/** `user` followed (or, with `follows` false, unfollowed) `followUser`: both their lists change where they show. */
function showFollow({ user, followUser }: EventPayloads['user.followed'], follows: boolean): void {
  changeHeldUsers((held) => {
    if (held._id === user._id) held.following = withPerson(held.following, followUser, follows)
    if (held._id === followUser._id) held.followers = withPerson(held.followers, user, follows)
  })
}

/** A live follow or unfollow; one of mine that this tab did not know of yet (another tab's) changes what I see. */
export function applyFollow(data: EventPayloads['user.followed'], follows: boolean): void {
  const me = data.user._id === session.user?._id
  const mine = me && isFollowing(data.followUser._id) !== follows
  // A follow of mine that a locked account accepted is no longer a request.
  if (me && follows) delete users.requested[data.followUser._id]
  showFollow(data, follows)
  if (mine) users.followsVersion++
}

/** A profile edited anywhere: the record itself, the person's name in every follow list, and on their posts. */
export function applyProfile({ user: edited }: EventPayloads['user.updated']): void {
  const rename = (person: UserSummary) => {
    if (person._id === edited._id) takeNames(person, edited)
  }
  changeHeldUsers((held) => {
    // The delta holds the public fields of the record as they now are, and nothing else.
    if (held._id === edited._id) Object.assign(held, edited)
    held.following.forEach(rename)
    held.followers.forEach(rename)
  })
  renameAuthor(edited)
}

/** My own post made (1) or deleted (-1) here: my profile's count follows without reading it again. */
export function countOwnPost(change: 1 | -1): void {
  const mine = session.username ? users.byUsername[session.username] : undefined
  if (mine?.postCount !== undefined) mine.postCount = Math.max(0, mine.postCount + change)
}

/** An account deleted anywhere: it leaves every list of people the tab holds, and its profile. */
export function forgetUser({ userId, username }: EventPayloads['user.deleted']): void {
  const gone = (person: UserSummary) => person._id !== userId
  changeHeldUsers((held) => {
    held.following = held.following.filter(gone)
    held.followers = held.followers.filter(gone)
  })
  users.suggestions = users.suggestions.filter(gone)
  delete users.byUsername[username]
}

export function isFollowing(userId: string): boolean {
  return session.user?.following.some((u) => u._id === userId) ?? false
}

/** Whether my request to follow `userId` waits for their answer. */
function isRequested(userId: string): boolean {
  return users.requested[userId] === true
}

export async function loadProfile(username: string): Promise<void> {
  users.profile = { username, resolved: '', loading: true, error: null, retryable: true }
  try {
    const user = await apiGetUser(username)
    applyUser(user)
    if (users.profile.username === username)
      users.profile = { username, resolved: user.username, loading: false, error: null, retryable: true }
  } catch (error) {
    if (users.profile.username === username) {
      const retryable = isRetryable(error)
      users.profile = { username, resolved: '', loading: false, error: errorMessage(error), retryable }
    }
  }
}

/**
 * Someone I do not want suggested: gone from the panel at once, not suggested again, and the next
 * suggestion fetched in their place. If the server fails, they come back where they were and the toast
 * says why; if their account is gone, so much the better.
 */
export async function dismissSuggestion(userId: string): Promise<void> {
  const at = users.suggestions.findIndex((user) => user._id === userId)
  const person = users.suggestions[at]
  if (!person) return
  users.suggestions.splice(at, 1)
  try {
    await apiDismissSuggestion(userId)
  } catch (error) {
    if (errorStatus(error) !== 404) {
      if (!users.suggestions.some((user) => user._id === userId))
        users.suggestions.splice(Math.min(at, users.suggestions.length), 0, person)
      showError(error, () => void dismissSuggestion(userId))
      return
    }
  }
  await loadSuggestions()
}

export async function loadSuggestions(): Promise<void> {
  const asked = session.token
  const answer = await apiGetSuggestions(SUGGESTIONS).then(
    (found) => ({ found }),
    (error: unknown) => ({ error }),
  )
  // Suggestions are for whoever asked: an answer that comes after they signed out is dropped.
  if (session.token !== asked) return
  if ('error' in answer) {
    // Shown in the panel, where Try again is.
    users.suggestionsError = errorMessage(answer.error)
  } else {
    users.suggestions = answer.found
    for (const user of answer.found) noteRequested(user)
    users.suggestionsError = null
  }
  users.suggestionsLoaded = true
}

/** Only the fields of a summary, from any record of a person. */
export const summaryOf = ({
  _id,
  username,
  firstName,
  lastName,
  displayName,
  avatarURL,
}: UserSummary): UserSummary => ({
  _id,
  username,
  firstName,
  lastName,
  ...(displayName ? { displayName } : {}),
  avatarURL,
})

/** Someone as the tab holds them: a profile seen, a suggestion, or a person in a follow list it shows. */
function heldPerson(userId: string): UserSummary | undefined {
  const held: readonly UserSummary[] = [...Object.values(users.byUsername), ...users.suggestions]
  const me = session.user
  const lists = [held, me?.following ?? [], me?.followers ?? []]
  for (const user of Object.values(users.byUsername)) lists.push(user.following, user.followers)
  for (const list of lists) {
    const found = list.find((person) => person._id === userId)
    if (found) return summaryOf(found)
  }
  return undefined
}

/** Whether following `userId` makes a request: an account the tab holds as locked (`person`, when given, says so too). */
function isLocked(userId: string, person?: { locked?: boolean }): boolean {
  if (person?.locked !== undefined) return person.locked
  const held = [...Object.values(users.byUsername), ...users.suggestions].find((user) => user._id === userId)
  return held?.locked === true
}

/** Shows me following `person` or not, in my record and in theirs; nothing when it already shows that. */
function showFollowing(person: UserSummary | undefined, follows: boolean): void {
  const me = session.user
  if (!me || !person || isFollowing(person._id) === follows) return
  showFollow({ user: summaryOf(me), followUser: person }, follows)
}

/**
 * Shows what `on` means for `userId`: following them, or, on a locked account I do not follow yet, my
 * request waiting; off, neither.
 */
function showFollowIntent(userId: string, on: boolean, person?: UserSummary & { locked?: boolean }): void {
  const shown = person ? summaryOf(person) : heldPerson(userId)
  if (!on) {
    delete users.requested[userId]
    showFollowing(shown, false)
  } else if (!isFollowing(userId)) {
    if (isLocked(userId, person)) users.requested[userId] = true
    else showFollowing(shown, true)
  }
}

/** Reads a person the tab shows again, for what a refused write did not say (whether a request waits). */
function refreshHeldUser(userId: string): void {
  const held = Object.values(users.byUsername).find((user) => user._id === userId)
  if (held) apiGetUser(held.username).then(applyUser, () => undefined)
}

const followWrites = toggleQueue<FollowAnswer>({
  send: (userId, follow) => (follow ? apiFollowUser(userId) : apiUnfollowUser(userId)),
  settle(userId, reply) {
    applyUser(reply.user)
    if (reply.followUser) applyUser(reply.followUser)
    // A locked account answers with itself and the request made (a follow shown before its lock was known
    // is taken back); a follow or a withdrawal leaves none.
    if (reply.requested) {
      showFollowing(heldPerson(userId), false)
      users.requested[userId] = true
    } else delete users.requested[userId]
  },
  restore(userId, follows, how, error) {
    showFollowIntent(userId, follows)
    // The write that failed asked for the opposite of what the server holds.
    if (how === 'failed') {
      showError(error, () => void queueFollow(userId), follows ? 'unfollow' : 'follow')
      refreshHeldUser(userId)
    }
  },
  already: { on: ['already_following'], off: ['not_following'] },
})

/**
 * Follows (or, on a locked account, asks to) when neither is done, and unfollows (or withdraws the
 * request) otherwise, at once (`person`: who they are, when the tab holds them nowhere else); the server
 * is told the latest intent, and the button ends where the server is. Once it has settled, a change of
 * whom I follow raises `followsVersion`. Screens call it through state/follows.ts, which also takes what an
 * unfollow hides off them.
 */
export async function queueFollow(userId: string, person?: UserSummary & { locked?: boolean }): Promise<void> {
  if (!session.user) return
  const following = isFollowing(userId)
  const on = following || isRequested(userId)
  showFollowIntent(userId, !on, person)
  if (users.pending[userId]) return void followWrites.toggle(userId, !on, on)
  users.pending[userId] = true
  try {
    await followWrites.toggle(userId, !on, on)
  } finally {
    delete users.pending[userId]
  }
  if (isFollowing(userId) !== following) users.followsVersion++
}

export async function editProfile(edit: ProfileEdit): Promise<boolean> {
  try {
    applyUser(await apiEditUser(edit))
    return true
  } catch (error) {
    showError(error, undefined, 'save the profile')
    return false
  }
}

export function reset(): void {
  followWrites.forget()
  Object.assign(users, initial())
}
