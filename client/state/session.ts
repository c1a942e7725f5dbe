import { proxy } from 'valtio'
import { apiGetHealth, apiLogin, apiSignup } from '../api/auth.js'
import { codeOf } from '../../common/error-codes.js'
import { errorCode, errorStatus, setUnauthorizedHandler } from '../api/http.js'
import type { LoginBody, SignupBody, User } from '../api/types.js'
import { apiGetUser } from '../api/users.js'
import { defaultAvatarOf } from '../../common/avatars.js'
import { PRESET_AVATARS } from '../lib/avatars.js'
import { bookmarkIds, type Registration } from '../lib/model.js'
import { clearSession, readSession, writeSession } from '../lib/storage.js'
import { showError } from './toasts.js'

/** The seeded demo account behind 'Login as a Guest'. */
const GUEST = { username: 'guest', password: 'guestpassword' } as const

/**
 * The signed-in user's record as the tab keeps it: the server sends the bookmarks as whole posts (or, as
 * earlier releases did, as post ids), and the tab keeps their ids, newest first, since all it asks of
 * them is whether a post is one.
 */
export type CurrentUser = Omit<User, 'bookmarks'> & { bookmarks: string[] }

const initial = () => ({
  token: null as string | null,
  username: null as string | null,
  /** The signed-in user's full record, once fetched. */
  user: null as CurrentUser | null,
  /** Whether the server offers the guest account; null while not known, until /api/health answers. */
  guestLogin: null as boolean | null,
  /** Who may sign up (REGISTRATION), as /api/health says; null while not known. */
  registration: null as Registration | null,
})

export const session = proxy(initial())

function signIn(token: string, user: User): void {
  writeSession(token, user.username)
  session.token = token
  session.username = user.username
  setCurrentUser(user)
}

/**
 * On app start: restore a stored session and fetch its user. A token the server rejects signs out as a
 * logout does: the session at once, then `clearEverything`, which makes every store forget this person
 * (state/sign-out.ts, which imports this module: it is handed in from above, so that the modules of
 * client/state import one another in one direction only).
 */
export function startSession(clearEverything: () => void): void {
  setUnauthorizedHandler(() => {
    forgetSession()
    clearEverything()
  })
  const stored = readSession()
  if (stored) {
    session.token = stored.token
    session.username = stored.username
    void loadCurrentUser()
  } else {
    // Only the login page shows what it says (the guest button); a signed-in start asks once signed out.
    void loadHealth()
  }
}

export async function loadCurrentUser(): Promise<void> {
  const username = session.username
  if (!username) return
  try {
    setCurrentUser(await apiGetUser(username))
  } catch (error) {
    // The stored user is gone (404); a 401 already ended the session through the handler.
    if (errorStatus(error) === 404) forgetSession()
    else showError(error, () => void loadCurrentUser())
  }
}

/**
 * Asks the server whether it offers the guest account, once at a time: a rejected token signs out twice
 * over (the session at once, then every store), and each may ask.
 */
let askingHealth: Promise<void> | undefined
export function loadHealth(): Promise<void> {
  askingHealth ??= askHealth().finally(() => (askingHealth = undefined))
  return askingHealth
}

async function askHealth(): Promise<void> {
  try {
    const health = await apiGetHealth()
    session.guestLogin = health.guestLogin !== false
    session.registration = health.registration ?? 'open'
  } catch {
    session.guestLogin = false
  }
}

/**
 * Logs in. Resolves true when signed in, and 'code' when the account asks for a two-factor code the login
 * did not carry (the form then asks for it); any other refusal goes to `onError` (the login form shows it
 * at its field), a toast by default.
 */
export async function login(body: LoginBody, onError: (error: unknown) => void = showError): Promise<boolean | 'code'> {
  try {
    const reply = await apiLogin(body)
    signIn(reply.encodedToken, reply.foundUser)
    return true
  } catch (error) {
    if (body.otp === undefined && errorCode(error) === codeOf('twoFactorRequired')) return 'code'
    onError(error)
    return false
  }
}

/** A password change hands out a new token and ends the old one: the session goes on with the new. */
export function replaceToken(token: string): void {
  if (!session.username) return
  writeSession(token, session.username)
  session.token = token
}

export async function loginAsGuest(): Promise<boolean> {
  return (await login({ ...GUEST })) === true
}

/**
 * Signs up: 'in' when signed in, 'pending' when the account waits for a moderator's approval
 * (REGISTRATION=approval) and nobody is signed in. A refusal is thrown, for the form to show.
 */
export async function signup(body: Omit<SignupBody, 'avatarURL'>): Promise<'in' | 'pending'> {
  const reply = await apiSignup({ ...body, avatarURL: defaultAvatarOf(body.username, PRESET_AVATARS) })
  if (reply.encodedToken === undefined) return 'pending'
  signIn(reply.encodedToken, reply.createdUser)
  return 'in'
}

/**
 * The session's part of signing out (state/sign-out.ts runs it with every other store's): storage
 * cleared and the session back to its start, but for what the server said of itself, the guest button.
 */
export function forgetSession(): void {
  clearSession()
  const { guestLogin, registration } = session
  Object.assign(session, initial(), { guestLogin, registration })
  if (guestLogin === null) void loadHealth()
}

/**
 * Takes a record of the signed-in user. Only the user's own record carries an email, the bookmarks and the
 * default audience; a public view of it has none of them, so ours are kept then.
 */
export function setCurrentUser(user: User): void {
  if (user.username !== session.username) return
  const current = session.user
  const own: CurrentUser = { ...user, bookmarks: bookmarkIds(user.bookmarks) }
  if (user.email !== undefined || current === null) session.user = own
  else {
    const { bookmarks, email, defaultVisibility } = current
    session.user = { ...own, bookmarks, email, ...(defaultVisibility ? { defaultVisibility } : {}) }
  }
}

/** A change to my own record that a live event describes (a follow, a profile edit), made where it is. */
export function changeCurrentUser(change: (user: CurrentUser) => void): void {
  if (session.user) change(session.user)
}

export function setBookmarks(postIds: string[]): void {
  if (session.user) session.user.bookmarks = postIds
}

/** One bookmark made or undone, here or elsewhere; a new one is the newest. */
export function markBookmarked(postId: string, bookmarked: boolean): void {
  const bookmarks = session.user?.bookmarks
  if (!bookmarks || bookmarks.includes(postId) === bookmarked) return
  setBookmarks(bookmarked ? [postId, ...bookmarks] : bookmarks.filter((id) => id !== postId))
}

export function reset(): void {
  Object.assign(session, initial())
}
