import type { PostVersion } from '../schemas/post-plans.js'
import type { LockedPost, PostRecord, PostVersionRecord, StoreTx } from '../store/types.js'
import { postImagesOf } from './post-views.js'

/** Edit history (DECISIONS §15): every edit keeps the version it replaces. */

type Versioned = Pick<
  LockedPost,
  | 'content'
  | 'spoilerText'
  | 'mediaUrl'
  | 'mediaAlt'
  | 'mediaWidth'
  | 'mediaHeight'
  | 'moreMedia'
  | 'poll'
  | 'createdAt'
  | 'editedAt'
>

/** The post as it reads now, as a version to keep: written at its last edit, or when it was made. */
function versionNow(post: Versioned): PostVersionRecord {
  return {
    content: post.content,
    ...(post.spoilerText ? { spoilerText: post.spoilerText } : {}),
    media: postImagesOf(post).map(({ url, alt, width, height }) => ({
      url,
      ...(alt ? { alt } : {}),
      ...(width !== undefined && height !== undefined ? { width, height } : {}),
    })),
    ...(post.poll ? { pollOptions: [...post.poll.options] } : {}),
    editedAt: post.editedAt ?? post.createdAt,
  }
}

/** Keeps the post's version before an edit changes it, in the edit's transaction. */
export async function keepVersion(tx: StoreTx, post: Versioned & { _id: string }): Promise<void> {
  await tx.addPostVersion(post._id, versionNow(post))
}

const shown = (version: PostVersionRecord): PostVersion => ({
  content: version.content,
  spoilerText: version.spoilerText ?? '',
  media: version.media.map(({ url, alt, width, height }) => ({
    url,
    alt: alt ?? '',
    ...(width !== undefined && height !== undefined ? { width, height } : {}),
  })),
  poll: version.pollOptions ? { options: [...version.pollOptions] } : null,
  editedAt: version.editedAt,
})

/** Every version of the post, the first first and the current one last. */
export function historyOf(post: PostRecord, earlier: readonly PostVersionRecord[]): PostVersion[] {
  return [...earlier, versionNow(post)].map(shown)
}

/**
 * A report's `targetVersion` (DECISIONS §17): the reported post as it read when reported, from the view
 * the report kept then.
 */
export function versionOfSnapshot(snapshot: object): PostVersion | undefined {
  const post = snapshot as Partial<{
    content: string
    spoilerText: string
    media: PostVersion['media']
    poll: { options: { text: string }[] }
    editedAt: string
    createdAt: string
  }>
  if (typeof post.content !== 'string' || post.createdAt === undefined) return undefined
  return {
    content: post.content,
    spoilerText: post.spoilerText ?? '',
    media: post.media ?? [],
    poll: post.poll ? { options: post.poll.options.map((option) => option.text) } : null,
    editedAt: post.editedAt ?? post.createdAt,
  }
}
