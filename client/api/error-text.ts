import * as MSG from '../../common/messages.js'

/**
 * What a failed call says to a person. The server's catalogue speaks in status words ("Unauthorized
 * access error", "Unprocessable Entity") and its validation in schema terms ("must NOT have fewer than
 * 3 characters"); the client shows the same facts in plain words.
 */
const PLAIN: Record<string, string> = {
  [MSG.invalidToken]: 'Your session has ended. Please log in again.',
  [MSG.userNotRegistered]: 'There is no account with that username.',
  [MSG.invalidCredentials]: 'The credentials you entered are invalid. Check the username and password.',
  [MSG.usernameExists]: 'That username is taken. Try another one.',
  [MSG.editPostNotOwner]: 'You can only edit your own posts.',
  [MSG.deletePostNotOwner]: 'You can only delete your own posts.',
  [MSG.editCommentNotOwner]: 'You can only edit your own comments.',
  [MSG.deleteCommentNotOwner]: 'You can only delete your own comments.',
  [MSG.alreadyLiked]: 'You already like this post.',
  [MSG.likeBelowZero]: "You don't like this post yet.",
  [MSG.alreadyDisliked]: "You don't like this post yet.",
  [MSG.alreadyBookmarked]: 'This post is already in your bookmarks.',
  [MSG.notBookmarked]: 'This post is not in your bookmarks.',
  [MSG.alreadyFollowing]: 'You already follow this account.',
  [MSG.notFollowing]: "You don't follow this account.",
  [MSG.selfFollow]: "You can't follow yourself.",
  [MSG.postNotFound]: "This post doesn't exist. It may have been deleted.",
  [MSG.commentNotFound]: "This comment doesn't exist. It may have been deleted.",
  [MSG.userNotFound]: "This account doesn't exist.",
  [MSG.tooManyRequests]: "You're doing that too often. Wait a moment and try again.",
  [MSG.internal]: 'Something went wrong on our side. Please try again.',
  [MSG.guestDisabled]: 'Guest login is turned off on this server.',
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

/** The words to show for the server's message, or its own when it is plain already. */
export function plainServerMessage(message: string, status: number): string {
  const known = PLAIN[message] ?? plainValidation(message)
  if (known) return known
  if (status >= 500) return PLAIN[MSG.internal] ?? message
  return message
}

export const OFFLINE_TEXT = "Can't reach Chirp. Check your connection and try again."
