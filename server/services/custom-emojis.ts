import { EMOJI_MAX_BYTES, SHORTCODE, shortcodesIn, type EmojiUse } from '../../common/custom-emoji.js'
import { MSG, badRequest, notFound, payloadTooLarge, unprocessableEntity } from '../errors.js'
import type { CustomEmojiRecord, StoreReader } from '../store/types.js'
import type { Comment, Post } from '../schemas/posts.js'
import type { User } from '../schemas/users.js'
import type { Admin } from './moderation-access.js'
import type { ServiceDeps } from './deps.js'
import type { MediaService } from './media.js'
import { dropUploads } from './media-deletion.js'

/** The emoji of the community by shortcode, as views look them up. */
export type EmojiLookup = ReadonlyMap<string, string>

export async function emojiLookup(store: Pick<StoreReader, 'listCustomEmojis'>): Promise<EmojiLookup> {
  return new Map((await store.listCustomEmojis()).map((emoji) => [emoji._id, emoji.url]))
}

/** The community's emoji that these texts name, each once, in the order they first appear. */
function emojisOf(known: EmojiLookup, ...texts: (string | undefined)[]): EmojiUse[] {
  const found = new Map<string, string>()
  for (const text of texts) {
    if (!text) continue
    for (const shortcode of shortcodesIn(text)) {
      const url = known.get(shortcode)
      if (url !== undefined) found.set(shortcode, url)
    }
  }
  return [...found].map(([shortcode, url]) => ({ shortcode, url }))
}

export interface CustomEmojisDeps extends ServiceDeps {
  media: Pick<MediaService, 'saveFetched' | 'remove'>
}

/**
 * Custom emoji (DECISIONS §15, §17): admins add them under a shortcode, the image re-encoded as uploads
 * are and kept in the media storage; deleting one hands its image to the `media-delete` job.
 */
export function createCustomEmojis({ store, now, media }: CustomEmojisDeps) {
  return {
    /** Every emoji, by shortcode. */
    list: (): Promise<CustomEmojiRecord[]> => store.listCustomEmojis(),

    /** Adds an emoji; the shortcode and size are checked before anything is stored. */
    async add(_admin: Admin, shortcode: string, image: Buffer): Promise<CustomEmojiRecord> {
      if (!SHORTCODE.test(shortcode)) throw badRequest(MSG.badShortcode)
      if (image.length > EMOJI_MAX_BYTES) throw payloadTooLarge(MSG.emojiTooLarge)
      if (await store.getCustomEmoji(shortcode)) throw unprocessableEntity(MSG.shortcodeTaken)
      const { url } = await media.saveFetched(image)
      const emoji: CustomEmojiRecord = { _id: shortcode, url, createdAt: now().toISOString() }
      const added = await store.transaction((tx) => tx.addCustomEmoji(emoji))
      if (!added) {
        // Another admin took the shortcode meanwhile: the image stored for this one is nobody's.
        await media.remove(url)
        throw unprocessableEntity(MSG.shortcodeTaken)
      }
      return emoji
    },

    /** Deletes an emoji; its image goes through the media-delete job, in the same transaction. */
    async remove(_admin: Admin, shortcode: string): Promise<void> {
      const at = now().toISOString()
      const removed = await store.transaction(async (tx) => {
        const emoji = await tx.removeCustomEmoji(shortcode)
        if (emoji) await dropUploads(tx, [emoji.url], at)
        return emoji
      })
      if (!removed) throw notFound(MSG.emojiNotFound)
    },
  }
}

export type CustomEmojis = ReturnType<typeof createCustomEmojis>

/** `emojis` on a view whose texts name any of the community's emoji; a view that names none is left as it is. */
function withEmojis<T extends object>(view: T, known: EmojiLookup, ...texts: (string | undefined)[]): T {
  if (known.size === 0) return view
  const emojis = emojisOf(known, ...texts)
  return emojis.length === 0 ? view : { ...view, emojis }
}

export const commentWithEmojis = (comment: Comment, known: EmojiLookup): Comment =>
  withEmojis(comment, known, comment.text, comment.displayName)

export const userWithEmojis = (user: User, known: EmojiLookup): User =>
  withEmojis(user, known, user.displayName, user.bio)

/** A post's view with the emoji its texts show, and its comments' and quoted post's. */
export function postWithEmojis(post: Post, known: EmojiLookup): Post {
  if (known.size === 0) return post
  const comments = post.comments.map((comment) => commentWithEmojis(comment, known))
  const quote = post.quote ? { quote: withEmojis(post.quote, known, post.quote.content, post.quote.displayName) } : {}
  return withEmojis({ ...post, comments, ...quote }, known, post.content, post.spoilerText, post.displayName)
}
