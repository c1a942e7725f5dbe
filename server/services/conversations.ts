import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import type { Conversation } from '../schemas/conversations.js'
import type {
  ConversationRecord,
  PageRequest,
  PostRecord,
  StoreReader,
  StoreTx,
  UserSummaryRecord,
} from '../store/types.js'
import { mayRead, visibilityOf } from './audience.js'
import type { ServiceDeps } from './deps.js'
import { mentionedIn, notify } from './notifier.js'
import { DEFAULT_PAGE } from './notifications.js'
import { postViews } from './post-views.js'
import { lookup, summaryById } from './views.js'
import { blockedEitherWay, seeing } from './visibility.js'

/**
 * Direct messages (DECISIONS §12): a direct post goes to the people it mentions, or, answering another
 * direct post, to the people of that one's conversation; each set of people has one conversation, which
 * each participant sees their own way (its last post they may read, their unread count, hidden or not).
 */

/**
 * Whose posts count for nothing in a reader's conversations: the people across a block from them, either
 * way, and suspended people. A mute is not among them: a muted sender's messages still arrive, only
 * without a notification.
 */
async function unheardBy(store: StoreReader, userId: string, at: string): Promise<string[]> {
  const [relations, suspended] = await Promise.all([store.relationsOf(userId, at), store.listSuspended(at)])
  const unheard = [...relations.blocking, ...relations.blockedBy, ...suspended.map((entry) => entry.userId)]
  return [...new Set(unheard)].filter((id) => id !== userId)
}

/**
 * Conversations as `userId` sees them, without the people `hide` names among the others in them: one read
 * of the people and one of the posts for a whole page.
 */
async function conversationViews(
  store: StoreReader,
  records: readonly ConversationRecord[],
  userId: string,
  at: Date,
  hide: readonly string[],
): Promise<Conversation[]> {
  const shown = records.filter((record): record is ConversationRecord & { lastPost: PostRecord } => !!record.lastPost)
  const unheard = new Set([userId, ...hide])
  const others = (record: ConversationRecord) => record.participantIds.filter((id) => !unheard.has(id))
  const reader = await seeing(store, { userId, compact: false }, at)
  const [posts, people] = await Promise.all([
    postViews(
      store,
      shown.map((record) => record.lastPost),
      reader,
    ),
    lookup(store, new Set(shown.flatMap(others))),
  ])
  return shown.flatMap((record, i) => {
    const lastPost = posts[i]
    if (!lastPost) return []
    const participants = others(record).map((id) => summaryById(id, people))
    return [{ _id: record._id, participants, lastPost, unread: record.unread }]
  })
}

/** The conversation as its participant sees it, or undefined when they are not in it or may read none of its posts. */
async function viewOf(store: StoreReader, conversationId: string, userId: string, at: Date) {
  const hide = await unheardBy(store, userId, at.toISOString())
  const record = await store.getConversation(conversationId, userId, hide)
  const [conversation] = record ? await conversationViews(store, [record], userId, at, hide) : []
  return conversation && { conversation, hide }
}

/**
 * Tells each of `userIds` how the conversation now stands for them (inside the transaction that changed
 * it): `conversation.updated`, or `conversation.deleted` to one who can read none of its posts any more.
 */
export async function tellConversation(tx: StoreTx, conversationId: string, userIds: Iterable<string>, at: Date) {
  for (const userId of new Set(userIds)) {
    const found = await viewOf(tx, conversationId, userId, at)
    tx.emit(
      found
        ? { name: 'conversation.updated', data: { conversation: found.conversation }, to: userId }
        : { name: 'conversation.deleted', data: { conversationId }, to: userId },
    )
  }
}

/** Who a direct post goes to, fixed when it is written. */
export interface DirectAudience {
  conversationId: string
  /** Its recipients: PostRecord's `addressed`. */
  recipients: string[]
  /** The post it answers, when it answers one. */
  inReplyTo?: string
}

/**
 * The conversation a direct post answering `inReplyTo` goes into, and its people: the answered post's;
 * 404 unless the author may read that post.
 */
async function conversationOfReply(tx: StoreTx, authorId: string, inReplyTo: string, at: string) {
  const answered = await tx.getPost(inReplyTo)
  if (!answered || !mayRead(answered, authorId, false)) throw notFound(MSG.postNotFound)
  if (visibilityOf(answered) !== 'direct') throw badRequest(MSG.replyNotDirect)
  const conversation =
    answered.conversationId === undefined ? undefined : await tx.getConversation(answered.conversationId, authorId)
  if (conversation) return { conversationId: conversation._id, people: conversation.participantIds }
  // A direct post written before conversations were kept is answered in the conversation of its people.
  const existing = await tx.getUserSummaries([answered.authorId, ...(answered.addressed ?? []), authorId])
  const people = existing.map((person) => person._id)
  return { conversationId: await tx.openConversation(people, randomUUID(), at), people }
}

/** Those of `people` but the author who are not across a block from the author, either way. */
export async function reachable(tx: StoreTx, authorId: string, people: readonly string[], at: string) {
  const others = [...new Set(people)].filter((id) => id !== authorId)
  const relations = await tx.relationsBetween(
    others.map((id) => [authorId, id] as const),
    at,
  )
  return others.filter((_, i) => {
    const relation = relations[i]
    return relation !== undefined && !blockedEitherWay(relation)
  })
}

/**
 * The audience of a new direct post by `authorId`, worked out in its transaction: the people `content`
 * mentions, in the conversation of the author and them (opened when there is none yet); or, with
 * `inReplyTo`, the people of the answered post's conversation, in it, whatever the text mentions. Anyone
 * across a block from the author, either way, is left out without a word.
 */
export async function directAudience(
  tx: StoreTx,
  authorId: string,
  content: string,
  inReplyTo: string | undefined,
  at: string,
): Promise<DirectAudience> {
  if (inReplyTo !== undefined) {
    const { conversationId, people } = await conversationOfReply(tx, authorId, inReplyTo, at)
    if (conversationId === undefined) throw notFound(MSG.postNotFound)
    return { conversationId, recipients: await reachable(tx, authorId, people, at), inReplyTo }
  }
  const mentioned = [...(await mentionedIn(tx, content)).values()].filter((user) => !user.pending)
  const recipients = await reachable(
    tx,
    authorId,
    mentioned.map((user) => user._id),
    at,
  )
  const conversationId = await tx.openConversation([authorId, ...recipients], randomUUID(), at)
  if (conversationId === undefined) throw notFound(MSG.userNotRegistered)
  return { conversationId, recipients }
}

/**
 * Files a direct post into its conversation, in the caller's transaction: the post with its recipients,
 * active again at `when` and unread for each of them. Who is told of it is the caller's to say.
 */
export async function fileDirect(
  tx: StoreTx,
  drawn: PostRecord,
  { conversationId, recipients, inReplyTo }: DirectAudience,
  when: string,
): Promise<PostRecord> {
  const record: PostRecord = {
    ...drawn,
    visibility: 'direct',
    ...(recipients.length > 0 ? { addressed: recipients } : {}),
    conversationId,
    ...(inReplyTo !== undefined ? { inReplyTo } : {}),
  }
  await tx.insertPost(record)
  await tx.deliverDirectPost(conversationId, record._id, record.authorId, recipients, when)
  return record
}

/**
 * Writes a direct post into its conversation (fileDirect), in the caller's transaction, and tells its
 * people: a `mention` notification to each recipient (but to one who mutes the author, who is told
 * nothing though the message still arrives), and `conversation.updated` to the author and each recipient.
 * No `post.created` goes out: no feed shows a direct post, and the conversation's event carries it.
 */
export async function sendDirect(
  tx: StoreTx,
  author: UserSummaryRecord,
  drawn: PostRecord,
  audience: DirectAudience,
  at: Date,
) {
  const when = at.toISOString()
  const record = await fileDirect(tx, drawn, audience, when)
  for (const recipientId of audience.recipients) {
    await notify(tx, author, recipientId, 'mention', { post: record }, when)
  }
  await tellConversation(tx, audience.conversationId, [author._id, ...audience.recipients], at)
}

export function createConversationsService({ store, now }: ServiceDeps) {
  /** The conversation as the caller sees it, or 404 when they are not in it or may read none of its posts. */
  async function mustView(reader: StoreReader, userId: string, conversationId: string, at: Date) {
    const found = await viewOf(reader, conversationId, userId, at)
    if (!found) throw notFound(MSG.conversationNotFound)
    return found
  }

  return {
    /** The caller's conversations that they have not hidden, the most recently active first. */
    async list(userId: string, { limit = DEFAULT_PAGE, cursor }: PageRequest) {
      const at = now()
      const hide = await unheardBy(store, userId, at.toISOString())
      const { items, nextCursor } = await store.listConversations(userId, { limit, cursor, hide })
      return { conversations: await conversationViews(store, items, userId, at, hide), nextCursor }
    },

    /** One conversation, with a page of its posts the caller may read, newest first. */
    async get(userId: string, conversationId: string, { limit = DEFAULT_PAGE, cursor }: PageRequest) {
      const at = now()
      const { conversation, hide } = await mustView(store, userId, conversationId, at)
      const page = await store.listConversationPosts(conversationId, userId, { limit, cursor, hide })
      const reader = await seeing(store, { userId, compact: false }, at)
      return { conversation, posts: await postViews(store, page.items, reader), nextCursor: page.nextCursor }
    },

    /** Marks it read for the caller; their streams hear it as they see it now. */
    async read(userId: string, conversationId: string) {
      return store.transaction(async (tx) => {
        const at = now()
        await mustView(tx, userId, conversationId, at)
        await tx.markConversationRead(conversationId, userId)
        const { conversation } = await mustView(tx, userId, conversationId, at)
        tx.emit({ name: 'conversation.updated', data: { conversation }, to: userId })
        return { conversation }
      })
    },

    /** Hides it for the caller alone, until a post reaches them in it; their streams drop it. */
    async hide(userId: string, conversationId: string) {
      return store.transaction(async (tx) => {
        await mustView(tx, userId, conversationId, now())
        await tx.hideConversation(conversationId, userId)
        tx.emit({ name: 'conversation.deleted', data: { conversationId }, to: userId })
        return {}
      })
    },

    /** How many of the caller's conversations hold unread posts. */
    async unread(userId: string) {
      const hide = await unheardBy(store, userId, now().toISOString())
      return { count: await store.countUnreadConversations(userId, hide) }
    },
  }
}

export type ConversationsService = ReturnType<typeof createConversationsService>
