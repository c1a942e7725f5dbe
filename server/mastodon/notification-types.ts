import type { Notification } from '../schemas/notifications.js'

/** Chirp's kinds of notification by Mastodon's names; a comment or a reply on one's post is a mention of one. */
export const NOTIFICATION_TYPES: Record<Notification['type'], string> = {
  like: 'favourite',
  repost: 'reblog',
  mention: 'mention',
  comment: 'mention',
  reply: 'mention',
  follow: 'follow',
  follow_request: 'follow_request',
  poll: 'poll',
  quote: 'quote',
}
