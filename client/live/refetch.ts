import {
  lists,
  loadBookmarks,
  loadExplore,
  loadHome,
  loadPost,
  loadProfilePosts,
  loadSearchPosts,
  loadTagPosts,
} from '../state/lists.js'
import { reloadComments } from '../state/comments.js'
import { conversations, loadConversations, loadUnreadConversations, openConversation } from '../state/conversations.js'
import { follows, loadFollowRequests } from '../state/follows.js'
import { isStaff, loadOpenCount, loadQueue, moderation } from '../state/moderation.js'
import { loadNotifications, loadUnreadCount, notifications } from '../state/notifications.js'
import { loadCurrentUser, session } from '../state/session.js'
import { loadProfile, loadSuggestions, users } from '../state/users.js'

/**
 * After a `reset` (the gap was older than the server's buffer, or the server restarted), events cannot tell
 * what changed: everything loaded is fetched again. Pages load their data on mount, so a list loaded but
 * not shown is fresh again by the time it shows; refetching every loaded one keeps this simple.
 */
export function refetchOnScreen(): void {
  void loadCurrentUser()
  refetchPostsOnScreen()
  if (users.profile.username) void loadProfile(users.profile.username)
  if (users.suggestionsLoaded) void loadSuggestions()
  if (notifications.list.loaded) void loadNotifications()
  else void loadUnreadCount()
  if (follows.requests.loaded) void loadFollowRequests()
  if (conversations.list.loaded) void loadConversations()
  if (conversations.messages.key) void openConversation(conversations.messages.key)
  void loadUnreadConversations()
  if (moderation.queue.loaded) void loadQueue(moderation.queue.key === 'resolved' ? 'resolved' : 'open')
  else if (isStaff(session.user?.role)) void loadOpenCount()
}

/**
 * The posts loaded, and their comments, fetched again: after a change no event spells out post by post
 * (an account deleted took its likes, reposts, votes and replies off others' posts, DECISIONS §9).
 */
export function refetchPostsOnScreen(): void {
  if (lists.home.loaded) void loadHome()
  if (lists.explore.loaded) void loadExplore()
  if (lists.bookmarks.loaded) void loadBookmarks()
  if (lists.profile.loaded && lists.profile.key) void loadProfilePosts(lists.profile.key)
  if (lists.search.loaded && lists.search.key) void loadSearchPosts(lists.search.key)
  if (lists.tag.loaded && lists.tag.key) void loadTagPosts(lists.tag.key)
  if (lists.detail.id) void loadPost(lists.detail.id)
  reloadComments()
}
