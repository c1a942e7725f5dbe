import type { ErrorCode } from '../../common/error-codes.js'

/**
 * What a failed call says to a person, chosen by the error's code. The server's catalogue speaks in status words ("Unauthorized
 * access error", "Unprocessable Entity") and its validation in schema terms ("must NOT have fewer than
 * 3 characters"); the client shows the same facts in plain words.
 */
const PLAIN: Partial<Record<ErrorCode, string>> = {
  invalid_token: 'Your session has ended. Please log in again.',
  user_not_registered: 'There is no account with that username.',
  invalid_credentials: 'The credentials you entered are invalid. Check the username and password.',
  username_exists: 'That username is taken. Try another one.',
  edit_post_not_owner: 'You can only edit your own posts.',
  delete_post_not_owner: 'You can only delete your own posts.',
  edit_comment_not_owner: 'You can only edit your own comments.',
  delete_comment_not_owner: 'You can only delete your own comments.',
  already_liked: 'You already like this post.',
  like_below_zero: "You don't like this post yet.",
  already_disliked: "You don't like this post yet.",
  already_bookmarked: 'This post is already in your bookmarks.',
  not_bookmarked: 'This post is not in your bookmarks.',
  already_following: 'You already follow this account.',
  not_following: "You don't follow this account.",
  self_follow: "You can't follow yourself.",
  post_not_found: "This post doesn't exist. It may have been deleted.",
  comment_not_found: "This comment doesn't exist. It may have been deleted.",
  user_not_found: "This account doesn't exist.",
  too_many_requests: "You're doing that too often. Wait a moment and try again.",
  internal: 'Something went wrong on our side. Please try again.',
  guest_disabled: 'Guest login is turned off on this server.',
  report_own: "You can't report yourself or your own posts and comments.",
  not_allowed: 'Only moderators and admins can do that.',
  report_resolved: 'Another moderator has resolved this report already.',
  nothing_to_remove: 'An account cannot be removed: suspend it instead.',
  suspend_self: "You can't suspend yourself.",
  not_suspended: 'This account is not suspended.',
  not_pending: 'This account is not waiting for approval.',
  own_role_lowered: "An admin can't lower their own role.",
  guest_role: "The guest account can't be a moderator or an admin.",
}

const FIELDS: Record<string, string> = {
  username: 'Username',
  password: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  bio: 'Bio',
  website: 'Website',
  content: 'A post',
  text: 'A comment',
  mediaAlt: 'An image description',
}

/** Schema words ("firstName must NOT have more than 50 characters") as a sentence about the form's field. */
function plainValidation(message: string): string | null {
  const match = /^(?:[\w.]+\/)*(\w+) must (.+)$/.exec(message)
  const field = match?.[1] && FIELDS[match[1]]
  if (!match || !field) return null
  const rule = match[2] ?? ''
  const most = /^NOT have more than (\d+) characters?$/.exec(rule)
  if (most) return `${field} can be at most ${most[1]} characters long.`
  const least = /^NOT have fewer than (\d+) characters?$/.exec(rule)
  if (least)
    return least[1] === '1' ? `${field} can't be empty.` : `${field} must be at least ${least[1]} characters long.`
  if (rule === 'match format "email"') return `${field} must be a valid email address.`
  if (rule.startsWith('match pattern')) return `${field} has characters that aren't allowed.`
  if (rule === 'contain visible text') return `${field} can't be only spaces or invisible characters.`
  return null
}

/** The words to show for the server's error, by its code, or its own message when it is plain already. */
export function plainServerMessage(message: string, status: number, code?: string): string {
  const known = PLAIN[code as ErrorCode] ?? plainValidation(message)
  if (known) return known
  if (status >= 500) return PLAIN.internal ?? message
  return message
}

export const OFFLINE_TEXT = "Can't reach Chirp. Check your connection and try again."
