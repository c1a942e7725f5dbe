import { nameWordsOf, tagUsesOf } from '../text-terms.js'

/** A post as its tags are worked out: its content and its comments' texts, each with when it was written. */
export interface TaggedPost {
  _id: string
  content: string
  createdAt: string
  comments: readonly { text: string; createdAt: string }[]
}

/** The post_tags rows of a post: each tag it carries, in its content or a comment, and when it was last used. */
export const postTagRows = (post: TaggedPost) =>
  [...tagUsesOf(post)].map(([tag, usedAt]) => ({ post_id: post._id, tag, created_at: post.createdAt, used_at: usedAt }))

export const userWordRows = (userId: string, names: { username: string; firstName: string; lastName: string }) =>
  nameWordsOf(names).map((word) => ({ word, user_id: userId }))
