import type { Notification } from '../schemas/notifications.js'
import type { UserSummary } from '../schemas/user-summary.js'
import type { CommentRecord, NotificationRecord, PostRecord, StoreReader } from '../store/types.js'
import { wordsJudge, type Judgement, type Written } from './filters.js'
import { summaryOf } from './views.js'

/**
 * What a notification points at: the post, and the comment when there is one, as they are now. The post's
 * audience comes along, so its live event reaches the recipient only while they may read the post.
 */
export interface Subject {
  post?: Pick<PostRecord, '_id' | 'content' | 'mediaUrl' | 'authorId' | 'visibility' | 'addressed'>
  comment?: { _id: string; text: string }
}

/** Notifications show a glimpse: the first 140 characters, never half of one. */
const SNIPPET = 140
function snippet(text: string): string {
  // No more UTF-16 units than the limit means no more characters either: most texts end here.
  if (text.length <= SNIPPET) return text
  let end = 0
  for (let characters = 0; characters < SNIPPET && end < text.length; characters++) {
    end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1
  }
  return text.slice(0, end)
}

export function notificationView(record: NotificationRecord, actor: UserSummary, subject: Subject): Notification {
  const { post, comment } = subject
  return {
    _id: record._id,
    type: record.type,
    actor,
    ...(post ? { post: { _id: post._id, content: snippet(post.content), mediaUrl: post.mediaUrl } } : {}),
    ...(comment ? { comment: { _id: comment._id, text: snippet(comment.text) } } : {}),
    createdAt: record.createdAt,
    read: record.read,
  }
}

type WrittenParts = 'spoilerText' | 'mediaAlt' | 'moreMedia' | 'poll'

/**
 * What of a notification someone else wrote, for the recipient's filters of notifications (DECISIONS §15):
 * the comment it carries, else its post when that is not the recipient's own (a mention, a quote); a like
 * or a repost of the recipient's own post carries nothing to filter.
 */
export function writtenIn(
  record: Pick<NotificationRecord, 'recipientId'>,
  actor: Pick<UserSummary, 'username'>,
  post: (Pick<PostRecord, 'authorId' | 'content'> & Partial<Pick<PostRecord, WrittenParts>>) | undefined,
  comment?: { text: string },
): Written | undefined {
  if (comment) return { username: actor.username, texts: [comment.text] }
  if (!post || post.authorId === record.recipientId) return undefined
  return {
    username: actor.username,
    texts: [
      post.content,
      post.spoilerText ?? '',
      post.mediaAlt ?? '',
      ...(post.moreMedia ?? []).map((media) => media.alt ?? ''),
      ...(post.poll?.options ?? []),
    ],
  }
}

/**
 * Views of a page of notifications: the people and posts they name, fetched in one call each. With a
 * judge (the recipient's filters of notifications), one it hides is left out and one it warns of carries
 * `filtered`.
 */
export async function notificationViews(
  store: StoreReader,
  records: readonly NotificationRecord[],
  judge?: (written: Written) => Judgement,
): Promise<Notification[]> {
  const postIds = [...new Set(records.flatMap((record) => (record.postId ? [record.postId] : [])))]
  const [actors, posts] = await Promise.all([
    store.getUserSummaries([...new Set(records.map((record) => record.actorId))]),
    store.getPosts(postIds),
  ])
  const actorById = new Map(actors.map((actor) => [actor._id, actor]))
  const postById = new Map(posts.map((post) => [post._id, post]))
  // A post's record holds only its newest comments: the others a page names are read on their own.
  const commentById = new Map<string, CommentRecord>()
  const named = new Map(
    records.flatMap((record) =>
      record.commentId && record.postId ? [[record.commentId, record.postId] as const] : [],
    ),
  )
  for (const post of posts)
    for (const comment of post.comments) if (named.delete(comment._id)) commentById.set(comment._id, comment)
  const rest = await Promise.all([...named].map(([commentId, postId]) => store.getComment(postId, commentId)))
  for (const comment of rest) if (comment) commentById.set(comment._id, comment)
  const views: Notification[] = []
  for (const record of records) {
    const actor = actorById.get(record.actorId)
    // An action is taken back with its notification, so neither is ever missing but for a record edited by hand.
    if (!actor) continue
    const post = record.postId ? postById.get(record.postId) : undefined
    const comment = record.commentId && post ? commentById.get(record.commentId) : undefined
    const summary = summaryOf(actor)
    const written = judge && writtenIn(record, summary, post, comment)
    const judged = written ? judge(written) : undefined
    if (judged?.hide) continue
    const view = notificationView(record, summary, { ...(post ? { post } : {}), ...(comment ? { comment } : {}) })
    views.push(judged && judged.filtered.length > 0 ? { ...view, filtered: judged.filtered } : view)
  }
  return views
}

/**
 * How many of the recipient's notifications their list shows unread (StoreReader.countUnread), less those
 * their filters of notifications hide at `at` (DECISIONS §15): a notification nobody shows them does not
 * wait to be read. Without such filters, the store's count as it is.
 */
export async function countShownUnread(store: StoreReader, recipientId: string, at: Date): Promise<number> {
  const judge = await wordsJudge(store, recipientId, 'notifications', at)
  if (!judge) return store.countUnread(recipientId)
  return (await notificationViews(store, await store.listUnreadNotifications(recipientId), judge)).length
}
