import { randomUUID } from 'node:crypto'
import { MSG, badRequest, forbidden, notFound, unauthorized, unprocessableEntity } from '../errors.js'
import { defaultAvatarOf } from '../../common/avatars.js'
import { PRESET_AVATARS } from '../schemas/media.js'
import type { LoginBody, SignupBody } from '../schemas/users.js'
import type { RevokedTokenRecord, TokenHolder, UserRecord } from '../store/types.js'
import { isGuest, usernameKey } from '../usernames.js'
import type { Registration } from '../config.js'
import type { AccountSecrets } from './account-secrets.js'
import type { ServiceDeps } from './deps.js'
import { suspendedAt } from './moderation-access.js'
import { hashPassword, verifyPassword } from './passwords.js'
import { proofOf } from './two-factor.js'
import { isValidAvatarUrl } from './urls.js'
import { userView } from './user-views.js'
import { checkProfileTexts } from './content-rules.js'

export interface TokenPayload {
  _id: string
  username: string
  /** The user's tokenVersion when the token was issued. */
  tv: number
  /** The token's own id (RFC 7519 §4.1.7), what logging it out revokes; absent from tokens issued before ids. */
  jti?: string
  /**
   * A token given to an app of the Mastodon client API (DECISIONS §13): the scopes granted, space-separated,
   * and the app's client_id. A token without them is Chirp's own session, with every scope.
   */
  scope?: string
  app?: string
}

/** What a Mastodon app's token adds to the session it is. */
export interface Grant {
  scope: string
  app: string
  /** The token's id, when the caller keeps a note of it. */
  jti?: string
}

export interface AuthDeps extends ServiceDeps {
  signToken: (payload: TokenPayload) => string
  guestLogin: boolean
  registration: Registration
  secrets: AccountSecrets
  /** scrypt's cost for new hashes (Config.passwordHashCost). */
  passwordHashCost: number
}

/** A token for the holder as it is now, with an id of its own. */
export const tokenFor = (signToken: AuthDeps['signToken'], user: TokenHolder, grant?: Grant) =>
  signToken({ _id: user._id, username: user.username, tv: user.tokenVersion, jti: randomUUID(), ...grant })

/**
 * Names that GET /api/users/<name> already answers as other calls (/users/bookmark, /users/suggestions):
 * a user with one of them could never be looked up, so they count as taken, without regard to case.
 */
const RESERVED_USERNAMES: ReadonlySet<string> = new Set(['bookmark', 'suggestions'])

/**
 * The names of a new account (docs/api-contract.md §4): some clients of the original mock
 * send neither, and the account is then called by its username; one sent alone is still one missing.
 */
function namesOf({ username, firstName, lastName }: SignupBody) {
  if (firstName === undefined && lastName === undefined) return { firstName: username, lastName: '' }
  if (firstName === undefined) throw badRequest('firstName is required')
  if (lastName === undefined) throw badRequest('lastName is required')
  checkProfileTexts({ firstName, lastName })
  return { firstName, lastName }
}

export function createAuthService({
  store,
  signToken,
  guestLogin,
  registration,
  secrets,
  passwordHashCost,
  now,
}: AuthDeps) {
  const tokenOf = (user: TokenHolder) => tokenFor(signToken, user)
  /** A password that no one has, checked against when the username is unknown so both paths cost the same. */
  let dummyHash: Promise<string> | undefined
  const unknownUserHash = () => (dummyHash ??= hashPassword(randomUUID(), passwordHashCost))

  /** With two-factor sign-in on, a login needs a code, spent as it is accepted so it works once. */
  async function checkSecondFactor(userId: string, otp: string | undefined) {
    const state = await store.getTwoFactor(userId)
    if (!state?.enabled) return
    if (otp === undefined || otp.trim() === '') throw unauthorized(MSG.twoFactorRequired)
    const proof = proofOf(secrets, state, otp, now())
    const spent = proof && (await store.transaction((tx) => tx.useTwoFactor(userId, proof)))
    if (!spent) throw unauthorized(MSG.twoFactorInvalid)
  }

  /** Every refusal of a login, in the order the original mock made them; the user when none applies. */
  async function checkLogin(body: LoginBody): Promise<UserRecord> {
    const user = await store.getUserByUsername(body.username)
    if (!user) {
      await verifyPassword(body.password, await unknownUserHash())
      throw notFound(MSG.userNotRegistered)
    }
    if (!guestLogin && isGuest(user)) throw forbidden(MSG.guestDisabled)
    if (!(await verifyPassword(body.password, user.passwordHash))) throw unauthorized(MSG.invalidCredentials)
    // Only once the password is right: nobody else learns whether an account waits or is suspended.
    if (user.pending) throw forbidden(MSG.accountPending)
    if (suspendedAt(user.suspension, now().toISOString())) throw forbidden(MSG.accountSuspended)
    await checkSecondFactor(user._id, body.otp)
    return user
  }

  return {
    async signup(body: SignupBody) {
      if (registration === 'closed') throw forbidden(MSG.signupsClosed)
      const avatarURL = body.avatarURL ?? defaultAvatarOf(body.username, PRESET_AVATARS)
      if (!isValidAvatarUrl(avatarURL)) throw badRequest(MSG.badAvatarUrl)
      const names = namesOf(body)
      if (RESERVED_USERNAMES.has(usernameKey(body.username))) throw unprocessableEntity(MSG.usernameExists)
      const passwordHash = await hashPassword(body.password, passwordHashCost)
      const user = await store.transaction(async (tx) => {
        const at = now().toISOString()
        const created: UserRecord = {
          _id: randomUUID(),
          username: body.username,
          ...names,
          email: body.email,
          passwordHash,
          avatarURL,
          bio: '',
          website: '',
          createdAt: at,
          updatedAt: at,
          bookmarks: [],
          following: [],
          followers: [],
          tokenVersion: 0,
          ...(registration === 'approval' ? { pending: true as const } : {}),
        }
        // The invite is counted in the signup's own transaction: a signup refused below gives it back.
        if (registration === 'invite' && !(body.invite !== undefined && (await tx.useInvite(body.invite, at)))) {
          throw forbidden(MSG.inviteRequired)
        }
        if (await tx.isUsernameReserved(body.username, at)) throw badRequest(MSG.usernameNotAvailable)
        const outcome = await tx.createUser(created)
        if (outcome === 'taken') throw unprocessableEntity(MSG.usernameExists)
        if (outcome === 'lookAlike') throw badRequest(MSG.usernameLookAlike)
        return created
      })
      const createdUser = await userView(store, user, user._id, now())
      return user.pending ? { createdUser, pending: true as const } : { createdUser, encodedToken: tokenOf(user) }
    },

    async login(body: LoginBody) {
      const user = await checkLogin(body)
      return { foundUser: await userView(store, user, user._id, now()), encodedToken: tokenOf(user) }
    },

    /**
     * The checks of a login, by username or by e-mail address (the password grant of the Mastodon client
     * API): the account the password opens, or the login's refusal. An address several accounts share
     * opens the one whose password it is.
     */
    async checkSignIn(login: string, password: string, otp?: string): Promise<TokenHolder> {
      if (!login.includes('@')) return checkLogin({ username: login, password, otp })
      for (const id of await store.usersWithEmail(login)) {
        const user = await store.getUser(id)
        if (user && (await verifyPassword(password, user.passwordHash))) {
          return checkLogin({ username: user.username, password, otp })
        }
      }
      await verifyPassword(password, await unknownUserHash())
      throw unauthorized(MSG.invalidCredentials)
    },

    /** A token for the holder as the app was granted it. */
    grantToken(user: TokenHolder, grant: Grant) {
      return tokenFor(signToken, user, grant)
    },

    /** Ends one token until it expires, and, on every instance, the streams it opened; nothing else. */
    async logout(token: RevokedTokenRecord) {
      await store.transaction(async (tx) => {
        await tx.revokeToken(token, now().toISOString())
        tx.emit({ name: 'session.ended', data: { tokenId: token._id }, to: token.userId })
      })
    },

    /**
     * Raises the user's token version, so every token issued before now stops working, and ends every
     * stream. The guest is everyone's: one visitor may not log out all the others.
     */
    async logoutAll(userId: string) {
      const user = await store.getUser(userId)
      if (user && isGuest(user)) throw forbidden(MSG.guestUnchangeable)
      await store.transaction(async (tx) => {
        await tx.revokeTokens(userId)
        tx.emit({ name: 'session.ended', data: {}, to: userId })
      })
    },

    /** The user a verified token speaks for, unless the token, or every token of the user, was logged out. */
    async userOfToken(payload: TokenPayload, tokenId: string) {
      // The holder first: on PostgreSQL that read also takes in every logout the user made through any
      // instance (store/pg/pg-store.ts), so the revocation check after it, which may be kept, is current.
      const user = await store.getTokenHolder(payload._id)
      // A deleted account's tokens are void, like logged-out ones; a stranger's id is not registered.
      if (!user) throw (await store.wasDeleted(payload._id)) ? unauthorized() : notFound(MSG.userNotRegistered)
      if (user.tokenVersion !== payload.tv || (await store.isTokenRevoked(tokenId))) throw unauthorized()
      if (!guestLogin && isGuest(user)) throw unauthorized()
      return user
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
