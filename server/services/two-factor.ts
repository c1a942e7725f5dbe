import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type { TwoFactorProof, TwoFactorRecord } from '../store/types.js'
import { isGuest } from '../usernames.js'
import type { AccountSecrets } from './account-secrets.js'
import type { ServiceDeps } from './deps.js'
import { verifyPassword } from './passwords.js'
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from './totp.js'

export interface TwoFactorDeps extends ServiceDeps {
  secrets: AccountSecrets
}

/**
 * What a typed code proves against the user's state: a TOTP code's step (within one step of now), or
 * else a recovery code; undefined when it is neither. Spending it is the store's, so it counts once.
 */
export function proofOf(
  secrets: AccountSecrets,
  state: TwoFactorRecord,
  code: string,
  at: Date,
): TwoFactorProof | undefined {
  const secret = secrets.open(state.secret)
  const trimmed = code.replace(/\s+/g, '')
  const step = secret === undefined ? undefined : totpStep(secret, trimmed, at)
  if (step !== undefined) return { step }
  const recoveryCode = recoveryCodeHash(trimmed)
  return state.recoveryCodes.includes(recoveryCode) ? { recoveryCode } : undefined
}

/** Two-factor sign-in (docs/api-contract.md §4): set up, then enable or disable, each with the password and a code. */
export function createTwoFactorService({ store, secrets, now }: TwoFactorDeps) {
  async function ownUser(userId: string) {
    const user = await store.getUser(userId)
    if (!user) throw notFound(MSG.userNotRegistered)
    if (isGuest(user)) throw forbidden(MSG.guestUnchangeable)
    return user
  }

  return {
    async status(userId: string) {
      return { enabled: (await store.getTwoFactor(userId))?.enabled === true }
    },

    /** A new secret, shown this once: the answer carries it and the URI a QR code is drawn from. */
    async setup(userId: string) {
      const user = await ownUser(userId)
      const secret = newTotpSecret()
      const begun = await store.transaction((tx) => tx.beginTwoFactor(userId, secrets.seal(secret)))
      if (!begun) throw badRequest(MSG.twoFactorAlreadyOn)
      return { secret, otpauthUrl: totpUri(secret, user.username) }
    },

    /** Turns it on once the password and a code of the set-up secret are right; the recovery codes are shown this once. */
    async enable(userId: string, password: string, code: string) {
      const user = await ownUser(userId)
      if (!(await verifyPassword(password, user.passwordHash))) throw badRequest(MSG.passwordIncorrect)
      const state = await store.getTwoFactor(userId)
      if (state?.enabled) throw badRequest(MSG.twoFactorAlreadyOn)
      if (!state) throw badRequest(MSG.twoFactorNotSetUp)
      const secret = secrets.open(state.secret)
      const step = secret === undefined ? undefined : totpStep(secret, code.replace(/\s+/g, ''), now())
      if (step === undefined) throw badRequest(MSG.twoFactorInvalid)
      const recoveryCodes = newRecoveryCodes()
      const enabled = await store.transaction((tx) =>
        tx.enableTwoFactor(userId, state.secret, step, recoveryCodes.map(recoveryCodeHash)),
      )
      if (!enabled) throw badRequest(MSG.twoFactorInvalid)
      return { recoveryCodes }
    },

    async disable(userId: string, password: string, code: string) {
      const user = await ownUser(userId)
      if (!(await verifyPassword(password, user.passwordHash))) throw badRequest(MSG.passwordIncorrect)
      const state = await store.getTwoFactor(userId)
      if (!state?.enabled) throw badRequest(MSG.twoFactorOff)
      const proof = proofOf(secrets, state, code, now())
      if (!proof) throw badRequest(MSG.twoFactorInvalid)
      await store.transaction(async (tx) => {
        if (!(await tx.useTwoFactor(userId, proof))) throw badRequest(MSG.twoFactorInvalid)
        await tx.disableTwoFactor(userId)
      })
    },
  }
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>
