/**
 * Every message the API answers with, one a situation: the server raises them and the client, which
 * checks an upload the same way before sending it and rewords what it shows, reads them from here. Both
 * import this module, so it holds nothing but text; each is imported as `MSG.name` from the namespace,
 * one export a message so that a bundle keeps only those it reads.
 */
export const invalidToken = 'The token is invalid. Unauthorized access error.'
export const userNotRegistered = 'The username you entered is not Registered. Not Found error'
export const invalidCredentials = 'The credentials you entered are invalid. Unauthorized access error.'
export const usernameExists = 'Unprocessable Entity. Username Already Exists.'
export const editPostNotOwner = "Cannot edit a Post doesn't belong to the logged in User."
export const deletePostNotOwner = "Cannot delete a Post doesn't belong to the logged in User."
export const alreadyLiked = 'Cannot like a post that is already liked.'
export const likeBelowZero = 'Cannot decrement like less than 0.'
export const alreadyDisliked = 'Cannot dislike a post that is already disliked.'
export const editCommentNotOwner = "Cannot edit a comment doesn't belong to the User."
export const deleteCommentNotOwner = "Cannot delete a comment doesn't belong to the User."
export const alreadyUpvoted = 'Cannot upvote a post that is already upvoted.'
export const alreadyDownvoted = 'Cannot downvote a post that is already downvoted.'
export const alreadyBookmarked = 'This Post is already bookmarked'
export const notBookmarked = 'Post not bookmarked yet'
export const alreadyFollowing = 'User Already following'
export const notFollowing = 'User already not following'
export const selfFollow = 'You cannot follow yourself'
export const usernameChange = 'Username cannot be changed'
export const postNotFound = 'Post not found'
export const commentNotFound = 'Comment not found'
export const userNotFound = 'User not found'
export const tooManyRequests = 'Too many requests, please try again later.'
export const uploadTooLarge = 'file must be less than 20mb'
export const uploadNotImage = 'file must be or an Image (JPEG/PNG)'
export const imageTooManyPixels = 'image must be at most 16384 pixels a side and 50 megapixels'
export const badUpload = 'upload must be multipart/form-data with one file in the field file'
export const uploadExtraPart = 'upload must hold one file in the field file and nothing else'
export const internal = 'Internal server error'
export const routeNotFound = 'Route not found'
export const emptyPost = 'A post needs content or media'
export const emptyComment = 'text must not be blank'
export const guestDisabled = 'Guest login is disabled on this server.'
export const badWebsite = 'website must be empty or an http(s) URL without credentials'
export const badMediaUrl = 'mediaUrl must be an uploaded /media/ file or an https URL'
export const badAvatarUrl = 'avatarURL must be a preset avatar, an uploaded /media/ file or an https URL'
export const noFile = 'file is required'
export const badCursor = 'cursor is invalid'
export const databaseUnreachable = 'The database cannot be reached.'
export const altWithoutMedia = 'mediaAlt needs an image: a post without mediaUrl cannot carry it'
export const notificationNotFound = 'Notification not found'
export const badTag = 'tag must be 1 to 50 letters, digits or _, and not only digits'
export const blankQuery = 'q must not be blank'
