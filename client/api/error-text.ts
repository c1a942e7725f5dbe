/**
 * What a failed call says to a person. The server's catalogue speaks in status words ("Unauthorized
 * access error", "Unprocessable Entity") and its validation in schema terms ("must NOT have fewer than
 * 3 characters"); the client shows the same facts in plain words.
 */
const PLAIN: Record<string, string> = {
  'The token is invalid. Unauthorized access error.': 'Your session has ended. Please log in again.',
  'The username you entered is not Registered. Not Found error': 'There is no account with that username.',
  'The credentials you entered are invalid. Unauthorized access error.':
    'The credentials you entered are invalid. Check the username and password.',
  'Unprocessable Entity. Username Already Exists.': 'That username is taken. Try another one.',
  "Cannot edit a Post doesn't belong to the logged in User.": 'You can only edit your own posts.',
  "Cannot delete a Post doesn't belong to the logged in User.": 'You can only delete your own posts.',
  "Cannot edit a comment doesn't belong to the User.": 'You can only edit your own comments.',
  "Cannot delete a comment doesn't belong to the User.": 'You can only delete your own comments.',
  'Cannot like a post that is already liked.': 'You already like this post.',
  'Cannot decrement like less than 0.': "You don't like this post yet.",
  'Cannot dislike a post that is already disliked.': "You don't like this post yet.",
  'This Post is already bookmarked': 'This post is already in your bookmarks.',
  'Post not bookmarked yet': 'This post is not in your bookmarks.',
  'User Already following': 'You already follow this account.',
  'User already not following': "You don't follow this account.",
  'You cannot follow yourself': "You can't follow yourself.",
  'Post not found': "This post doesn't exist. It may have been deleted.",
  'Comment not found': "This comment doesn't exist. It may have been deleted.",
  'User not found': "This account doesn't exist.",
  'Too many requests, please try again later.': "You're doing that too often. Wait a moment and try again.",
  'Internal server error': 'Something went wrong on our side. Please try again.',
  'Guest login is disabled on this server.': 'Guest login is turned off on this server.',
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
  if (status >= 500) return PLAIN['Internal server error'] ?? message
  return message
}

export const OFFLINE_TEXT = "Can't reach Chirp. Check your connection and try again."
