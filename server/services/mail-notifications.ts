import { MAIL_KINDS, PUSH_KINDS, type MailKind, type PushKind } from '../../common/notification-settings.js'
import type { PushAlert } from '../store/client-app-types.js'
import { badRequest, MSG, notFound } from '../errors.js'
import type { ClaimedJob, NotificationRecord, StoreReader, StoreTx } from '../store/types.js'
import type { AccountSecrets } from './account-secrets.js'
import type { ServiceDeps } from './deps.js'
import { newJob } from './jobs.js'
import type { Mailer } from './mailer.js'
import type { Subject } from './notification-views.js'

export interface MailNotificationDeps extends ServiceDeps {
  mailer: Mailer | undefined
  secrets: AccountSecrets
  publicUrl: string
  /** How long after the first notification of a burst its mail goes: MAIL_BATCH_SECONDS. */
  batchSeconds: number
}

/** The push alerts each kind of Settings turns on and off. */
const PUSH_ALERTS: Record<PushKind, readonly PushAlert[]> = {
  mention: ['mention', 'comment', 'reply', 'quote'],
  direct: ['direct'],
  follow: ['follow', 'follow_request'],
  like: ['like'],
  repost: ['repost'],
  poll: ['poll'],
}

/** The most notifications one mail lists; the rest wait for the next. */
const MOST_IN_A_MAIL = 50

/** The kind of mail a notification is: a mention in a direct message is a direct message. */
function mailKindOf(type: NotificationRecord['type'], direct: boolean): MailKind | undefined {
  if (type === 'mention') return direct ? 'direct' : 'mention'
  if (type === 'follow' || type === 'follow_request') return 'follow'
  return undefined
}

/** The job that mails a person about what they were told of lately. */
const mailJob = (userId: string, runAt: string) => newJob('mail', { template: 'notifications', userId }, runAt)

/**
 * Within the write that adds a notification: a mail job when its recipient asked to be mailed about its
 * kind. The job waits for the rest of the burst (runMailJob), so the three mentions of a thread are one mail.
 */
export async function queueMail(tx: StoreTx, record: NotificationRecord, subject: Subject): Promise<void> {
  const kind = mailKindOf(record.type, subject.post?.visibility === 'direct')
  if (!kind) return
  const recipient = await tx.getAccount(record.recipientId)
  if (!recipient?.mailAlerts?.includes(kind)) return
  await tx.enqueueJob(mailJob(record.recipientId, record.createdAt), record.createdAt)
}

const WORDS: Record<MailKind, (who: string) => string> = {
  mention: (who) => `@${who} mentioned you`,
  direct: (who) => `@${who} sent you a direct message`,
  follow: (who) => `@${who} followed you, or asked to`,
  report: () => 'A new report waits for a moderator',
}

/**
 * E-mail notifications (DECISIONS §15): which kinds each person is mailed about, one mail for each burst
 * (MAIL_BATCH_SECONDS from its first notification), and the one-click unsubscribe every mail links to.
 */
export function createMailNotifications(deps: MailNotificationDeps) {
  const { store, now, mailer, secrets, publicUrl, batchSeconds } = deps

  const macOf = (userId: string, kind: MailKind) => secrets.unsubscribeMac(`${userId} ${kind}`).toString('base64url')
  /** The unsubscribe link of a mail of `kind` to `userId`: a token that names both and proves it. */
  function unsubscribeLink(userId: string, kind: MailKind) {
    const token = `${userId}.${kind}.${macOf(userId, kind)}`
    return `${publicUrl}/api/account/notifications/unsubscribe?token=${encodeURIComponent(token)}`
  }

  /** The person and kind an unsubscribe token names, or a 400 when it is not one Chirp made. */
  function tokenOf(token: string): { userId: string; kind: MailKind } {
    const [userId, kind, mac, ...rest] = token.split('.')
    const known = MAIL_KINDS.find((each) => each === kind)
    if (rest.length > 0 || !userId || !known || !mac) throw badRequest(MSG.unsubscribeLinkInvalid)
    if (!secrets.checkUnsubscribeMac(`${userId} ${known}`, Buffer.from(mac, 'base64url')))
      throw badRequest(MSG.unsubscribeLinkInvalid)
    return { userId, kind: known }
  }

  /** The user's notifications not yet mailed about, of the kinds they want mail for, oldest first. */
  async function pendingOf(reader: StoreReader, userId: string, kinds: readonly MailKind[], since: string) {
    const found: { record: NotificationRecord; kind: MailKind }[] = []
    let cursor: string | undefined
    do {
      const page = await reader.listNotifications(userId, { limit: MOST_IN_A_MAIL, ...(cursor ? { cursor } : {}) })
      for (const record of page.items) {
        if (record.createdAt <= since) return found.reverse()
        if (record.read) continue
        const post = record.postId === undefined ? undefined : await reader.getPost(record.postId)
        const kind = mailKindOf(record.type, post?.visibility === 'direct')
        if (kind && kinds.includes(kind)) found.push({ record, kind })
      }
      cursor = page.nextCursor ?? undefined
    } while (cursor && found.length < MOST_IN_A_MAIL)
    return found.reverse()
  }

  return {
    /** Which kinds the user is mailed about, each true or false. */
    async mailSettings(userId: string): Promise<Record<MailKind, boolean>> {
      const user = await store.getAccount(userId)
      if (!user) throw notFound(MSG.userNotRegistered)
      return Object.fromEntries(MAIL_KINDS.map((kind) => [kind, user.mailAlerts?.includes(kind) ?? false])) as Record<
        MailKind,
        boolean
      >
    },

    /** Turns the kinds named on or off, leaving the others as they are. */
    async setMailSettings(userId: string, changes: Partial<Record<MailKind, boolean>>) {
      await store.transaction(async (tx) => {
        const user = await tx.getAccount(userId)
        if (!user) throw notFound(MSG.userNotRegistered)
        const on = MAIL_KINDS.filter((kind) => changes[kind] ?? user.mailAlerts?.includes(kind) ?? false)
        // Only what is made from now on is mailed: turning a kind on does not mail the past.
        if ((user.mailAlerts ?? []).length === 0 && on.length > 0)
          await tx.setMailedThrough(userId, now().toISOString())
        await tx.setMailAlerts(userId, on)
      })
    },

    /** Which kinds are pushed: each is on when a device of the user's is pushed about it. */
    async pushSettings(userId: string): Promise<Record<PushKind, boolean>> {
      const subscriptions = await store.listPushSubscriptions(userId)
      return Object.fromEntries(
        PUSH_KINDS.map((kind) => [
          kind,
          subscriptions.some((each) => each.alerts.includes(PUSH_ALERTS[kind][0] as PushAlert)),
        ]),
      ) as Record<PushKind, boolean>
    },

    /** Turns the kinds named on or off on every device of the user's, leaving the others as they are. */
    async setPushSettings(userId: string, changes: Partial<Record<PushKind, boolean>>) {
      await store.transaction(async (tx) => {
        for (const subscription of await tx.listPushSubscriptions(userId)) {
          const alerts = new Set(subscription.alerts)
          for (const kind of PUSH_KINDS) {
            const on = changes[kind]
            if (on === undefined) continue
            for (const alert of PUSH_ALERTS[kind]) {
              if (on) alerts.add(alert)
              else alerts.delete(alert)
            }
          }
          await tx.putPushSubscription({ ...subscription, alerts: [...alerts] })
        }
      })
    },

    /** Turns off the kind an unsubscribe link names (RFC 8058): whose it was and which kind. */
    async unsubscribe(token: string) {
      const { userId, kind } = tokenOf(token)
      await store.transaction(async (tx) => {
        const user = await tx.getAccount(userId)
        if (!user) throw badRequest(MSG.unsubscribeLinkInvalid)
        await tx.setMailAlerts(
          userId,
          (user.mailAlerts ?? []).filter((each) => each !== kind),
        )
      })
      return { kind }
    },

    /** Whether an unsubscribe token is one Chirp made, and which kind it names (for its confirm page). */
    kindOfToken: (token: string) => tokenOf(token).kind,

    /**
     * Runs a `notifications` mail job: once the oldest notification not yet mailed is MAIL_BATCH_SECONDS
     * old, one mail lists every one made since; before then, the job waits until it is (a burst's other
     * jobs find nothing left and end). How far the mail went is noted before it is sent and taken back if
     * the send fails, so two runs at once send it once and a failure is tried again.
     */
    async runJob(job: ClaimedJob) {
      if (!mailer) throw new Error('SMTP_URL is not set')
      const userId = String(job.payload.userId)
      const at = now()
      const claimed = await store.transaction(async (tx) => {
        await tx.lockUser(userId)
        const user = await tx.getAccount(userId)
        if (!user?.mailAlerts || user.mailAlerts.length === 0) return undefined
        const since = user.mailedThrough ?? new Date(0).toISOString()
        const pending = await pendingOf(tx, userId, user.mailAlerts, since)
        const oldest = pending[0]
        if (!oldest) return undefined
        const due = Date.parse(oldest.record.createdAt) + batchSeconds * 1000
        if (due > at.getTime()) {
          const runAt = new Date(due).toISOString()
          await tx.enqueueJob(mailJob(userId, runAt), at.toISOString())
          return undefined
        }
        const through = pending.at(-1)?.record.createdAt ?? since
        await tx.setMailedThrough(userId, through)
        return { user, pending, since, through }
      })
      if (!claimed) return
      const { user, pending, since, through } = claimed
      const actors = new Map(
        (await store.getUserSummaries([...new Set(pending.map(({ record }) => record.actorId))])).map((each) => [
          each._id,
          each.username,
        ]),
      )
      const kinds = [...new Set(pending.map(({ kind }) => kind))]
      const lines = pending.map(({ record, kind }) => `- ${WORDS[kind](actors.get(record.actorId) ?? 'someone')}`)
      const links = kinds.map(
        (kind) =>
          `Stop mail about ${kind === 'direct' ? 'direct messages' : `${kind}s`}: ${unsubscribeLink(userId, kind)}`,
      )
      // The one-click header stops the kind the mail is mostly about: its first.
      const first = kinds[0] as MailKind
      const text =
        `Hello @${user.username}, this happened on Chirp:\n\n${lines.join('\n')}\n\n` +
        `See it all: ${publicUrl}/notifications\n\n${links.join('\n')}\n`
      try {
        await mailer.send({
          to: user.email,
          subject: pending.length === 1 ? 'New on Chirp' : `${pending.length} new notifications on Chirp`,
          text,
          messageId: `<${job._id}.${userId}@${new URL(publicUrl).hostname}>`,
          headers: {
            'List-Unsubscribe': `<${unsubscribeLink(userId, first)}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        })
      } catch (error) {
        await store.transaction(async (tx) => {
          await tx.lockUser(userId)
          if ((await tx.getAccount(userId))?.mailedThrough === through) await tx.setMailedThrough(userId, since)
        })
        throw error
      }
    },
  }
}

export type MailNotifications = ReturnType<typeof createMailNotifications>
