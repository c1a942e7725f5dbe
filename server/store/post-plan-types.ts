import type { PostData } from '../schemas/posts.js'
import type { MediaRecord } from './types.js'

/**
 * A post as it read before an edit (DECISIONS §15): its text, content warning, images and poll options.
 * The embedded store keeps a post's earlier versions on its record; PostgreSQL in a table of its own.
 */
export interface PostVersionRecord {
  readonly content: string
  /** Absent: none. */
  readonly spoilerText?: string
  readonly media: readonly MediaRecord[]
  /** The poll's options as they read then; absent without a poll. */
  readonly pollOptions?: readonly string[]
  /** When this version was written: the post's creation, or the edit that made it. */
  readonly editedAt: string
}

/** What a scheduled post will publish: the fields of a new post, checked when it was scheduled. */
export type ScheduledPostData = Pick<
  PostData,
  'content' | 'media' | 'spoilerText' | 'poll' | 'quoteOf' | 'visibility' | 'inReplyTo'
>

/**
 * A post kept until its time (DECISIONS §15), then published by a `scheduled-post` job. The embedded
 * store keeps a person's on their record; PostgreSQL in a table of its own.
 */
export interface ScheduledPostRecord {
  readonly _id: string
  readonly userId: string
  readonly scheduledAt: string
  readonly postData: ScheduledPostData
  readonly createdAt: string
}

export interface PostPlanReads {
  /** The post's earlier versions, oldest first: none for a post never edited, or unknown. */
  listPostVersions(postId: string): Promise<PostVersionRecord[]>
  /** The person's scheduled posts, the soonest first (the earlier made first among equals). */
  listScheduledPosts(userId: string): Promise<ScheduledPostRecord[]>
  getScheduledPost(userId: string, id: string): Promise<ScheduledPostRecord | undefined>
}

export interface PostPlanWrites {
  /** Keeps a version the post had, after those kept before; false for an unknown post. */
  addPostVersion(postId: string, version: PostVersionRecord): Promise<boolean>
  /** Keeps the scheduled post, in place of any of the same id; false for an unknown user. */
  putScheduledPost(scheduled: ScheduledPostRecord): Promise<boolean>
  /**
   * Forgets the scheduled post and answers it, when it is due at `at` (undefined when it is not, or gone):
   * of two transactions taking one post, only one gets it.
   */
  takeScheduledPost(userId: string, id: string, at: string): Promise<ScheduledPostRecord | undefined>
  /** False when the person has none of that id. */
  removeScheduledPost(userId: string, id: string): Promise<boolean>
}
