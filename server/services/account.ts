import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type { ClaimedJob, TokenHolder, UserRecord } from '../store/types.js'
import { isGuest } from '../usernames.js'
import type { AccountSecrets } from './account-secrets.js'
import type { ServiceDeps } from './deps.js'
import { newJob } from './jobs.js'
import type { Mailer } from './mailer.js'
import { hashPassword, verifyPassword } from './passwords.js'
import { createResetLinks } from './reset-links.js'

export interface AccountDeps extends ServiceDeps {
  secrets: AccountSecrets
  /** A new token for the holder, as a login issues one. */
  tokenFor: (holder: TokenHolder) => string
  /** Absent without SMTP_URL: a reset request then sends nothing, and says so once through `warn`. */
  mailer: Mailer | undefined
  /** Where links in mail point (Config.publicUrl). */
  publicUrl: string
  /** The operator's log, for what a request cannot be told: a mail that could not be sent. */
  warn: (message: string, error?: unknown) => void
  /** scrypt's cost for new hashes (Config.passwordHashCost). */
  passwordHashCost: number
}

export function createAccountService({
  store,
  secrets,
  tokenFor,
  mailer,
  publicUrl,
  warn,
  passwordHashCost,
  now,
}: AccountDeps) {
  let warnedNoMail = false
  const links = createResetLinks({ secrets, publicUrl, now })

  /** Sets the password while the hash is still the one checked, and ends every token and stream of the user. */
  async function replacePassword(user: UserRecord, newPassword: string, refusal: string) {
    const passwordHash = await hashPassword(newPassword, passwordHashCost)
    return store.transaction(async (tx) => {
      const holder = await tx.setPassword(user._id, user.passwordHash, passwordHash, now().toISOString())
      if (!holder) throw badRequest(refusal)
      tx.emit({ name: 'session.ended', data: {}, to: user._id })
      return holder
    })
  }

  return {
    /** A new password, and a new token: every other token and stream of the user ends, on every instance. */
    async changePassword(userId: string, currentPassword: string, newPassword: string) {
      const user = await store.getUser(userId)
      if (!user) throw notFound(MSG.userNotRegistered)
      if (isGuest(user)) throw forbidden(MSG.guestUnchangeable)
      if (!(await verifyPassword(currentPassword, user.passwordHash))) throw badRequest(MSG.passwordIncorrect)
      return { encodedToken: tokenFor(await replacePassword(user, newPassword, MSG.passwordIncorrect)) }
    },

    /**
     * Queues a `mail` job that mails a link to every account of the address. Whether the address is known
     * is found out by the job, later: the request does the same work for any address, so neither the
     * answer nor its timing tells.
     */
    async requestReset(email: string) {
      if (!mailer) {
        if (!warnedNoMail) warn('a password reset was asked for, but SMTP_URL is not set: no mail is sent')
        warnedNoMail = true
        return
      }
      const at = now().toISOString()
      await store.enqueueJobs([newJob('mail', { template: 'password-reset', email }, at)], at)
    },

    /**
     * Runs a `mail` job. Each mail's Message-ID comes from the job and the account, so a mail sent again
     * (its job's run cut short after the send, by a crash) is the same message to the receiving side.
     */
    async runMailJob(job: ClaimedJob) {
      if (!mailer) throw new Error('SMTP_URL is not set')
      const email = String(job.payload.email)
      const users = (await store.getUsers(await store.usersWithEmail(email))).filter((user) => !isGuest(user))
      for (const user of users) {
        const text =
          `Someone asked to reset the password of @${user.username} on Chirp.\n\n` +
          `To choose a new one, open this link within an hour (it works once):\n${links.linkFor(user)}\n\n` +
          'If it was not you, ignore this mail: your password stays as it is.'
        const messageId = `<${job._id}.${user._id}@${new URL(publicUrl).hostname}>`
        await mailer.send({ to: user.email, subject: 'Reset your Chirp password', text, messageId })
      }
    },

    /** Sets the password a valid link was sent for, and ends every old token and stream; answers whose it was. */
    async confirmReset(token: string, newPassword: string) {
      const user = await links.userOf(store, token)
      if (!user) throw badRequest(MSG.resetLinkInvalid)
      return (await replacePassword(user, newPassword, MSG.resetLinkInvalid))._id
    },
  }
}

export type AccountService = ReturnType<typeof createAccountService>
