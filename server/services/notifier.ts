import { randomUUID } from 'node:crypto'
import { mentionsOf } from '../store/text-terms.js'
import type {
  NotificationMatch,
  NotificationRecord,
  NotificationType,
  Relation,
  StoreReader,
  StoreTx,
  UnreadCount,
  UserRecord,
  UserSummaryRecord,
} from '../store/types.js'
import { countShownUnread, notificationView, writtenIn, type Subject } from './notification-views.js'
import { wordsJudge, type Judgement, type Written } from './filters.js'
import { summaryOf } from './views.js'
import { hears } from './visibility.js'
import { audienceOf } from './audience-events.js'
import { queuePushes } from './push.js'
import { queueMail } from './mail-notifications.js'

/**
 * Notifications are made and taken back inside the transaction of the write that causes them, with
 * their events, so they exist exactly when that write does (docs/api-contract.md §8).
 */

/**
 * Tells `recipientId` of `actor`'s action, unless it is their own, they were told already, or they do
 * not hear from the actor (services/visibility.ts). `relation` is the recipient's to the actor, where
 * the caller has read it already (alongside a write of its own, in one round trip).
 */
export async function notify(
  tx: StoreTx,
  actor: UserSummaryRecord,
  recipientId: string,
  type: NotificationType,
  subject: Subject,
  at: string,
  relation?: Relation,
) {
  if (recipientId === actor._id) return
  // Across a block nobody is told, and a muted person's actions do not reach whoever mutes them.
  if (!hears(relation ?? (await tx.relationBetween(recipientId, actor._id, at)))) return
  await addAndTell(tx, notificationOf(actor, recipientId, type, subject, at), actor, subject)
}

/** A new notification of `actor`'s action, unread. */
export const notificationOf = (
  actor: UserSummaryRecord,
  recipientId: string,
  type: NotificationType,
  subject: Subject,
  at: string,
): NotificationRecord => ({
  _id: randomUUID(),
  type,
  recipientId,
  actorId: actor._id,
  ...(subject.post ? { postId: subject.post._id } : {}),
  ...(subject.comment ? { commentId: subject.comment._id } : {}),
  createdAt: at,
  read: false,
})

/** Adds the notification and tells its recipient's streams, unless it existed already. */
export async function addAndTell(tx: StoreTx, record: NotificationRecord, actor: UserSummaryRecord, subject: Subject) {
  await tellAdded(tx, [{ record, actor, subject }], [await tx.addNotification(record)])
}

/** A notification added, with what its event tells of it. */
export interface Added {
  record: NotificationRecord
  actor: UserSummaryRecord
  subject: Subject
}

/**
 * The unread count each recipient's notifications list shows (countShownUnread), read once a recipient:
 * the counts the writes answer also count the notifications about posts the recipient may no longer read
 * (DECISIONS §12), which the list leaves out, and those their filters of notifications hide.
 */
function shownUnread(tx: StoreReader, at: Date) {
  const counts = new Map<string, number>()
  return async (recipientId: string) => {
    const known = counts.get(recipientId)
    if (known !== undefined) return known
    const count = await countShownUnread(tx, recipientId, at)
    counts.set(recipientId, count)
    return count
  }
}

/** Each recipient's filters of notifications as they stand when a notification comes, read once a recipient. */
function recipientFilters(tx: StoreReader) {
  const judges = new Map<string, ((written: Written) => Judgement) | undefined>()
  return async (record: NotificationRecord) => {
    if (!judges.has(record.recipientId))
      judges.set(
        record.recipientId,
        await wordsJudge(tx, record.recipientId, 'notifications', new Date(record.createdAt)),
      )
    return judges.get(record.recipientId)
  }
}

/**
 * What addAndTell tells, for notifications the caller added itself (several in one step): each that was
 * added (`unread[i]`, the store's answer for `added[i]`, is a number) reaches its recipient's streams with
 * the unread count their list shows once all are.
 */
export async function tellAdded(tx: StoreTx, added: readonly Added[], unread: readonly (number | undefined)[]) {
  const countOf = shownUnread(tx, new Date(added[0]?.record.createdAt ?? Date.now()))
  const judgeOf = recipientFilters(tx)
  for (const [i, { record, actor, subject }] of added.entries()) {
    if (unread[i] === undefined) continue
    const summary = summaryOf(actor)
    // The recipient's filters of notifications (DECISIONS §15): one they hide is neither streamed nor pushed.
    const written = writtenIn(record, summary, subject.post, subject.comment)
    const judged = written && (await judgeOf(record))?.(written)
    if (judged?.hide) continue
    const view = notificationView(record, summary, subject)
    tx.emit({
      name: 'notification.created',
      data: {
        ...(judged && judged.filtered.length > 0 ? { ...view, filtered: judged.filtered } : view),
        unread: await countOf(record.recipientId),
      },
      to: record.recipientId,
      audience: subject.post && audienceOf(subject.post),
    })
    await queuePushes(tx, record, subject)
    await queueMail(tx, record, subject)
  }
}

/** Takes back the notifications of an action undone; whoever had one unread hears their new count. */
export async function retract(tx: StoreTx, match: NotificationMatch) {
  await tellRetracted(tx, await tx.removeNotifications(match))
}

/**
 * What retract tells, for notifications the caller removed itself (alongside a write of its own): each
 * recipient who had one unread hears the count their list now shows.
 */
export async function tellRetracted(tx: StoreTx, removed: readonly UnreadCount[]) {
  await tellUnread(
    tx,
    removed.map(({ recipientId }) => recipientId),
  )
}

/** Tells each of `recipientIds` the unread count their notifications list shows now (`notification.read`). */
export async function tellUnread(tx: StoreTx, recipientIds: Iterable<string>) {
  // Filters lapse by the minute: the clock of this write is near enough for which of them still hide.
  const countOf = shownUnread(tx, new Date())
  for (const recipientId of new Set(recipientIds)) {
    tx.emit({ name: 'notification.read', data: { unread: await countOf(recipientId) }, to: recipientId })
  }
}

/** The people a text mentions, by id: each `@name` is the first of its readings that names someone. */
export async function mentionedIn(store: StoreReader, text: string): Promise<Map<string, UserRecord>> {
  const found = new Map<string, UserRecord | undefined>()
  const lookup = async (name: string) => {
    if (!found.has(name)) found.set(name, await store.getUserByUsername(name))
    return found.get(name)
  }
  const people = new Map<string, UserRecord>()
  for (const candidates of mentionsOf(text)) {
    for (const name of candidates) {
      const user = await lookup(name)
      if (user) {
        people.set(user._id, user)
        break
      }
    }
  }
  return people
}

/**
 * After a post or comment is written (`before` is '') or edited: people no longer mentioned lose their
 * mention, people newly mentioned get one; `skip` are told otherwise (a post's author, of a comment on it).
 */
export async function syncMentions(
  tx: StoreTx,
  actor: UserSummaryRecord,
  texts: { before: string; after: string },
  subject: Subject & { post: NonNullable<Subject['post']> },
  at: string,
  skip: ReadonlySet<string> = new Set(),
) {
  const [was, now] = await Promise.all([mentionedIn(tx, texts.before), mentionedIn(tx, texts.after)])
  for (const recipientId of was.keys()) {
    if (now.has(recipientId)) continue
    const identity = { type: 'mention', recipientId, actorId: actor._id, postId: subject.post._id } as const
    await retract(tx, { identity: subject.comment ? { ...identity, commentId: subject.comment._id } : identity })
  }
  for (const recipientId of now.keys()) {
    if (!was.has(recipientId) && !skip.has(recipientId)) await notify(tx, actor, recipientId, 'mention', subject, at)
  }
}
