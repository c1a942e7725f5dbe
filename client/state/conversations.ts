import { proxy } from 'valtio'
import {
  apiGetConversation,
  apiGetConversations,
  apiGetUnreadConversations,
  apiHideConversation,
  apiReadConversation,
} from '../api/conversations.js'
import { apiCreatePost } from '../api/posts.js'
import { errorStatus } from '../api/http.js'
import type { AudienceEventPayloads, Conversation, DirectPost, NewPostData } from '../api/types.js'
import { apiGetUser } from '../api/users.js'
import { cachePosts } from './post-cache.js'
import { emptyPaged, loadPaged, loadPagedBy } from './paged.js'
import { showError } from './toasts.js'

/**
 * Direct messages (DECISIONS §12): my conversations, newest activity first; the one on screen, its
 * messages in the post cache and their ids here, newest first as the server pages them; and how many
 * conversations have unread messages, the badge on Messages.
 */

const PAGE = 20
const MESSAGES_PAGE = 30

const initial = () => ({
  list: emptyPaged<Conversation>('mine'),
  unread: 0,
  /** The conversation on screen, once read; `hidden` once it was hidden (here or in another tab). */
  open: { conversation: null as Conversation | null, hidden: false },
  /** Its messages' ids, newest first; the key is the conversation's id. */
  messages: emptyPaged<string>(),
})

export const conversations = proxy(initial())

/** Bumped by each change of the unread count, so a count asked for before it is not taken after it. */
let countVersion = 0

function setUnread(count: number): void {
  countVersion += 1
  conversations.unread = Math.max(0, count)
}

export async function loadUnreadConversations(): Promise<void> {
  const asked = countVersion
  try {
    const count = await apiGetUnreadConversations()
    if (asked === countVersion) setUnread(count)
  } catch {
    // The badge keeps what it showed; the next event or sign-in corrects it.
  }
}

export function loadConversations(more = false): Promise<void> {
  return loadPaged(conversations, 'list', 'mine', more, async (cursor) => {
    const reply = await apiGetConversations({ limit: PAGE, cursor })
    return { items: reply.conversations, nextCursor: reply.nextCursor }
  })
}

/** What the tab knows of a conversation's unread count before a change: undefined when it cannot tell. */
function unreadBefore(conversationId: string): number | undefined {
  const { list, open } = conversations
  const listed = list.items.find((c) => c._id === conversationId)
  if (listed) return listed.unread
  if (open.conversation?._id === conversationId) return open.conversation.unread
  // Every conversation is loaded and this one is none of them: it is new, or hidden until now.
  return list.loaded && list.done ? 0 : undefined
}

/** The list keeps its order, the newest activity first; a conversation older than what is loaded comes with a later page. */
function placeInList(conversation: Conversation): void {
  const { list } = conversations
  if (!list.loaded) return
  const rest = list.items.filter((c) => c._id !== conversation._id)
  const at = rest.findIndex((c) => c.lastPost.createdAt <= conversation.lastPost.createdAt)
  if (at !== -1) list.items = [...rest.slice(0, at), conversation, ...rest.slice(at)]
  else list.items = list.done ? [...rest, conversation] : rest
}

/** Adds a message to the conversation on screen, when it is this one and does not show it yet. */
function showMessage(conversationId: string, post: DirectPost): void {
  const { messages } = conversations
  if (messages.key !== conversationId || !messages.loaded || messages.items.includes(post._id)) return
  cachePosts([post])
  messages.items.unshift(post._id)
}

/**
 * A conversation as the server now tells it (an answer, or a live `conversation.updated`): its place in
 * the list, the screen showing it, and the badge. One on screen that has new unread messages is read.
 */
function takeConversation(conversation: Conversation): void {
  const before = unreadBefore(conversation._id)
  placeInList(conversation)
  const { open } = conversations
  const onScreen = conversations.messages.key === conversation._id
  if (onScreen) {
    open.conversation = conversation
    open.hidden = false
    showMessage(conversation._id, conversation.lastPost)
  }
  if (before === undefined) void loadUnreadConversations()
  else setUnread(conversations.unread + Number(conversation.unread > 0) - Number(before > 0))
  if (onScreen && conversation.unread > 0 && !document.hidden) void markConversationRead(conversation._id)
}

export function receiveConversation({ conversation }: AudienceEventPayloads['conversation.updated']): void {
  takeConversation(conversation)
}

/** Marks the conversation read: I have seen its messages. */
async function markConversationRead(conversationId: string): Promise<void> {
  try {
    takeConversation(await apiReadConversation(conversationId))
  } catch {
    // Not something the reader asked for: the count stays, and the next visit marks it again.
  }
}

/**
 * The first page of a conversation's messages (fresh), or the next, older one; opening it marks it read.
 * A conversation that is not there (gone, or never mine) shows as hidden.
 */
export async function openConversation(conversationId: string, more = false): Promise<void> {
  if (!more && conversations.messages.key !== conversationId) conversations.open = { conversation: null, hidden: false }
  await loadPagedBy<string, 'messages'>(
    conversations,
    'messages',
    conversationId,
    more,
    (id) => id,
    async (cursor) => {
      try {
        const reply = await apiGetConversation(conversationId, { limit: MESSAGES_PAGE, cursor })
        cachePosts(reply.posts)
        if (conversations.messages.key === conversationId) conversations.open.conversation = reply.conversation
        return { items: reply.posts.map((post) => post._id), nextCursor: reply.nextCursor }
      } catch (error) {
        if (errorStatus(error) === 404 && conversations.messages.key === conversationId)
          conversations.open.hidden = true
        throw error
      }
    },
  )
  const shown = conversations.open.conversation
  if (!more && shown?._id === conversationId && shown.unread > 0) await markConversationRead(conversationId)
}

/** The conversation left the screen: nothing holds its messages any more (the cache keeps the posts). */
export function closeConversation(conversationId: string): void {
  if (conversations.messages.key !== conversationId) return
  conversations.messages = emptyPaged<string>()
  conversations.open = { conversation: null, hidden: false }
}

/** The conversation leaves the list and the badge; on screen, it shows as hidden. */
function forgetConversation(conversationId: string): void {
  const before = unreadBefore(conversationId)
  const { list } = conversations
  list.items = list.items.filter((c) => c._id !== conversationId)
  if (conversations.messages.key === conversationId) conversations.open.hidden = true
  if (before === undefined) void loadUnreadConversations()
  else if (before > 0) setUnread(conversations.unread - 1)
}

export function receiveConversationHidden({ conversationId }: AudienceEventPayloads['conversation.deleted']): void {
  forgetConversation(conversationId)
}

/** Hides a conversation for me only, until a new message comes. Resolves whether it was hidden. */
export async function hideConversation(conversationId: string): Promise<boolean> {
  try {
    await apiHideConversation(conversationId)
    forgetConversation(conversationId)
    return true
  } catch (error) {
    showError(error, undefined, 'hide the conversation')
    return false
  }
}

/** A direct post to send: the server knows it by its audience. */
const direct = (content: string, more: Partial<NewPostData> = {}): NewPostData => ({
  content,
  media: [],
  visibility: 'direct',
  ...more,
})

/**
 * Sends a message in a conversation: a direct post answering its newest message, which reaches the same
 * people whatever it mentions. It shows at once, at the bottom of the screen and on top of the list.
 */
export async function sendMessage(conversationId: string, content: string): Promise<boolean> {
  const { messages, open } = conversations
  const inReplyTo = (messages.key === conversationId ? messages.items[0] : undefined) ?? open.conversation?.lastPost._id
  if (!inReplyTo) return false
  try {
    const post: DirectPost = await apiCreatePost(direct(content, { inReplyTo }))
    showMessage(conversationId, post)
    const known = open.conversation?._id === conversationId ? open.conversation : undefined
    if (known) takeConversation({ ...known, lastPost: post, unread: 0 })
    return true
  } catch (error) {
    showError(error, undefined, 'send the message')
    return false
  }
}

/**
 * Starts a conversation: a direct post mentioning each recipient. Each is looked up first, so a name
 * that is nobody's is said rather than sent to nobody. Resolves the conversation's id ('' when the server
 * did not name one), or an error to show at the field.
 */
export async function startConversation(
  usernames: readonly string[],
  text: string,
): Promise<{ conversationId: string } | { error: string }> {
  if (usernames.length === 0) return { error: 'Add at least one person to send the message to.' }
  const looked = await Promise.all(
    usernames.map(async (username) => {
      try {
        return { username: (await apiGetUser(username)).username }
      } catch (error) {
        return { username, error }
      }
    }),
  )
  const failed = looked.find((person) => 'error' in person)
  if (failed) {
    if (errorStatus(failed.error) === 404) return { error: `Nobody is called @${failed.username}.` }
    showError(failed.error, undefined, 'send the message')
    return { error: `@${failed.username} could not be looked up. Try again.` }
  }
  const mentions = looked.map((person) => `@${person.username}`).join(' ')
  try {
    const post: DirectPost = await apiCreatePost(direct(`${mentions} ${text}`))
    cachePosts([post])
    return { conversationId: post.conversationId ?? '' }
  } catch (error) {
    showError(error, undefined, 'send the message')
    return { error: 'The message was not sent.' }
  }
}

/**
 * A direct post that reached this tab as a post (a live `post.created`): the open conversation it belongs
 * to shows it. Its `conversation.updated` does the same; either may come first.
 */
export function receiveDirectPost(post: DirectPost): void {
  if (post.conversationId) showMessage(post.conversationId, post)
}

/** A deleted message leaves the conversation on screen; a conversation it was the last of is read again. */
export function dropMessage(postId: string): void {
  const { messages, list } = conversations
  if (messages.items.includes(postId)) messages.items = messages.items.filter((id) => id !== postId)
  if (list.items.some((c) => c.lastPost._id === postId)) void loadConversations()
}

export function reset(): void {
  countVersion += 1
  Object.assign(conversations, initial())
}
