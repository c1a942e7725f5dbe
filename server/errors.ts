/** The messages of SPEC §8 and DECISIONS §1, word for word. */
export const MSG = {
  invalidToken: 'The token is invalid. Unauthorized access error.',
  userNotRegistered: 'The username you entered is not Registered. Not Found error',
  invalidCredentials: 'The credentials you entered are invalid. Unauthorized access error.',
  usernameExists: 'Unprocessable Entity. Username Already Exists.',
  editPostNotOwner: "Cannot edit a Post doesn't belong to the logged in User.",
  deletePostNotOwner: "Cannot delete a Post doesn't belong to the logged in User.",
  alreadyLiked: 'Cannot like a post that is already liked.',
  likeBelowZero: 'Cannot decrement like less than 0.',
  alreadyDisliked: 'Cannot dislike a post that is already disliked.',
  editCommentNotOwner: "Cannot edit a comment doesn't belong to the User.",
  deleteCommentNotOwner: "Cannot delete a comment doesn't belong to the User.",
  alreadyUpvoted: 'Cannot upvote a post that is already upvoted.',
  alreadyDownvoted: 'Cannot downvote a post that is already downvoted.',
  alreadyBookmarked: 'This Post is already bookmarked',
  notBookmarked: 'Post not bookmarked yet',
  alreadyFollowing: 'User Already following',
  notFollowing: 'User already not following',
  selfFollow: 'You cannot follow yourself',
  usernameChange: 'Username cannot be changed',
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
  userNotFound: 'User not found',
  tooManyRequests: 'Too many requests, please try again later.',
  uploadTooLarge: 'file must be less than 20mb',
  uploadNotImage: 'file must be or an Image (JPEG/PNG)',
  imageTooManyPixels: 'image must be at most 16384 pixels a side and 50 megapixels',
  badUpload: 'upload must be multipart/form-data with one file in the field file',
  uploadExtraPart: 'upload must hold one file in the field file and nothing else',
  internal: 'Internal server error',
  routeNotFound: 'Route not found',
  emptyPost: 'A post needs content or media',
  emptyComment: 'text must not be blank',
  guestDisabled: 'Guest login is disabled on this server.',
  badWebsite: 'website must be empty or an http(s) URL without credentials',
  badMediaUrl: 'mediaUrl must be an uploaded /media/ file or an https URL',
  badAvatarUrl: 'avatarURL must be a preset avatar, an uploaded /media/ file or an https URL',
  noFile: 'file is required',
  databaseUnreachable: 'The database cannot be reached.',
  altWithoutMedia: 'mediaAlt needs an image: a post without mediaUrl cannot carry it',
  notificationNotFound: 'Notification not found',
  badTag: 'tag must be 1 to 50 letters, digits or _, and not only digits',
  blankQuery: 'q must not be blank',
} as const

/** A refusal the client caused; the error handler turns it into `{ errors: [message] }`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export const badRequest = (message: string) => new AppError(400, message)
export const unauthorized = (message: string = MSG.invalidToken) => new AppError(401, message)
export const forbidden = (message: string) => new AppError(403, message)
export const notFound = (message: string) => new AppError(404, message)

/** A problem the operator must fix before Chirp can start (configuration, data directory); shown without a stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message)
    this.name = new.target.name
  }
}
