import { http, pageQuery } from './http.js'
import type { Conversation, ConversationReply, ConversationsReply, Page } from './types.js'

const id = encodeURIComponent

/** My conversations, the newest activity first (DECISIONS §12). */
export function apiGetConversations(page: Page): Promise<ConversationsReply> {
  return http<ConversationsReply>('/conversations', { query: pageQuery(page) })
}

/** One conversation and a page of its messages, newest first; the cursor goes to older ones. */
export function apiGetConversation(conversationId: string, page: Page): Promise<ConversationReply> {
  return http<ConversationReply>(`/conversations/${id(conversationId)}`, { query: pageQuery(page) })
}

/** Marks every message of the conversation read for me; answers it with `unread` 0. */
export async function apiReadConversation(conversationId: string): Promise<Conversation> {
  const reply = await http<{ conversation: Conversation }>(`/conversations/${id(conversationId)}/read`, {
    method: 'POST',
  })
  return reply.conversation
}

/** Hides the conversation for me only, until a new message comes. */
export async function apiHideConversation(conversationId: string): Promise<void> {
  await http(`/conversations/${id(conversationId)}`, { method: 'DELETE' })
}

/** How many of my conversations have unread messages: the badge on Messages. */
export async function apiGetUnreadConversations(): Promise<number> {
  const reply = await http<{ count: number }>('/conversations/unread')
  return reply.count
}
