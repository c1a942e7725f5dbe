import { AppError } from '../errors.js'
import { tagOf } from '../store/text-terms.js'
import type { PostsService } from './posts.js'
import type { UsersService } from './users.js'

/** What a chat app shows for a shared link: the card's title, text and picture, as Open Graph names them. */
export interface LinkPreview {
  type: 'article' | 'profile' | 'website'
  title: string
  description: string
  /** A path on this server or an absolute URL; made absolute when rendered. */
  image?: string
  imageAlt?: string
  /** `summary_large_image` for a post's own picture; `summary` (a small square) for avatars and tags. */
  card: 'summary' | 'summary_large_image'
}

/** How much of a post's text a card carries (DECISIONS §2, "Shared links"). */
const DESCRIPTION_MAX = 200

/** `text` cut to `max` characters (whole code points), with an ellipsis when cut. */
function clip(text: string, max: number = DESCRIPTION_MAX): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()]
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`
}

/** What a post id or a username can be (schemas/common.ts); anything else is no page, and is not looked up. */
const ID = /^[A-Za-z0-9_-]{1,64}$/
const USERNAME_OR_ID = /^[A-Za-z0-9_.-]{3,64}$/

const name = (person: { firstName: string; lastName: string; username: string }) =>
  `${`${person.firstName} ${person.lastName}`.trim() || person.username} (@${person.username})`

/** Only "not there" is an answer here; anything else is the server's own failure and goes on up. */
async function unlessMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof AppError && (error.statusCode === 404 || error.statusCode === 400)) return undefined
    throw error
  }
}

/**
 * The previews of the three pages people share: a post, a profile and a tag, each read as a visitor
 * without an account reads it, so nothing hidden from visitors is described. Undefined when there is none.
 */
export function createLinkPreviews({ posts, users }: { posts: PostsService; users: UsersService }) {
  return {
    async post(id: string): Promise<LinkPreview | undefined> {
      if (!ID.test(id)) return undefined
      const found = await unlessMissing(() => posts.get(id, undefined))
      // Only a public post is described where links are shared (DECISIONS §12): an unlisted one opens by
      // its link but is not advertised.
      if (found?.post.visibility !== 'public') return undefined
      const { post } = found
      const image = post.mediaUrl || undefined
      return {
        type: 'article',
        title: `${name(post)} on Chirp`,
        description: clip(post.content) || (image ? 'An image on Chirp' : 'A post on Chirp'),
        image: image ?? post.avatarURL,
        imageAlt: image ? clip(post.mediaAlt ?? '', 420) || undefined : `${name(post)}'s avatar`,
        card: image ? 'summary_large_image' : 'summary',
      }
    },

    async profile(username: string): Promise<LinkPreview | undefined> {
      if (!USERNAME_OR_ID.test(username)) return undefined
      const found = await unlessMissing(() => users.get(username, undefined))
      if (!found) return undefined
      const { user } = found
      return {
        type: 'profile',
        title: `${name(user)} on Chirp`,
        description: clip(user.bio) || `Posts by @${user.username} on Chirp`,
        image: user.avatarURL,
        imageAlt: `${name(user)}'s avatar`,
        card: 'summary',
      }
    },

    tag(raw: string): LinkPreview | undefined {
      const tag = tagOf(raw)
      if (tag === undefined) return undefined
      return {
        type: 'website',
        title: `#${tag} on Chirp`,
        description: `Posts tagged #${tag} on Chirp`,
        card: 'summary',
      }
    },
  }
}

export type LinkPreviews = ReturnType<typeof createLinkPreviews>
