import { parseRichText } from '../../common/text-rules.js'
import type { Post } from '../schemas/posts.js'
import { statusIdOf } from '../services/status-ids.js'
import { VISIBILITY_NAMES, absolute, escapeHtml, mastodonEmojis } from './account-entity.js'
import type { Account } from './schemas.js'
import type { Comment } from '../schemas/posts.js'
import type { InnerStatus, MediaAttachment, ShownStatus, Status } from './status-schemas.js'

/** What a page of statuses is drawn from besides its posts: their people's accounts and the reader's marks. */
export interface StatusContext {
  publicUrl: string
  /** Accounts by username and by id. */
  accounts: ReadonlyMap<string, Account>
  readerId: string | undefined
  /** The posts the reader bookmarked. */
  bookmarked: ReadonlySet<string>
  /** The id an image's upload has as a media attachment; undefined for an image that is no upload of this server's. */
  mediaIdOf: (url: string) => string | undefined
}

/** An image as Mastodon's MediaAttachment. */
export function imageAttachment(
  image: {
    id: string
    url: string
    description: string | null
    width: number | undefined
    height: number | undefined
    focus?: { x: number; y: number } | null
  },
  publicUrl: string,
): MediaAttachment {
  const { width, height, focus } = image
  const url = absolute(publicUrl, image.url)
  return {
    id: image.id,
    type: 'image',
    url,
    preview_url: url,
    remote_url: null,
    description: image.description,
    blurhash: null,
    meta: {
      ...(width !== undefined && height !== undefined
        ? { original: { width, height, size: `${width}x${height}`, aspect: width / height } }
        : {}),
      ...(focus ? { focus } : {}),
    },
  }
}

const profileUrl = (publicUrl: string, username: string) => `${publicUrl}/profile/${encodeURIComponent(username)}`
const tagUrl = (publicUrl: string, tag: string) => `${publicUrl}/tag/${encodeURIComponent(tag)}`

/** A paragraph's text as Mastodon's HTML: its links, mentions and hashtags made links, as Mastodon marks them. */
function paragraphHtml(text: string, publicUrl: string): string {
  return parseRichText(text)
    .map((segment) => {
      switch (segment.kind) {
        case 'link':
          return `<a href="${escapeHtml(segment.href)}" rel="nofollow noopener noreferrer" target="_blank">${escapeHtml(segment.text)}</a>`
        case 'mention':
          return `<span class="h-card"><a href="${escapeHtml(profileUrl(publicUrl, segment.username))}" class="u-url mention">@<span>${escapeHtml(segment.username)}</span></a></span>`
        case 'tag':
          return `<a href="${escapeHtml(tagUrl(publicUrl, segment.tag))}" class="mention hashtag" rel="tag">#<span>${escapeHtml(segment.text.slice(1))}</span></a>`
        default:
          return escapeHtml(segment.text)
      }
    })
    .join('')
    .replace(/\n/g, '<br>')
}

/** A post's text as Mastodon's HTML: paragraphs at blank lines, line breaks within them. */
export function contentHtml(text: string, publicUrl: string): string {
  return text
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== '')
    .map((part) => `<p>${paragraphHtml(part, publicUrl)}</p>`)
    .join('')
}

const tagsOf = (text: string, publicUrl: string) =>
  parseRichText(text).flatMap((segment) =>
    segment.kind === 'tag' ? [{ name: segment.tag, url: tagUrl(publicUrl, segment.tag) }] : [],
  )

function accountFor(context: StatusContext, key: string): Account {
  const account = context.accounts.get(key)
  if (!account) throw new Error(`no account for ${key}`)
  return account
}

export const pollOf = (post: Pick<Post, '_id' | 'poll'>): InnerStatus['poll'] => {
  const poll = post.poll
  if (!poll) return null
  return {
    id: post._id,
    expires_at: poll.closesAt,
    expired: poll.closed,
    multiple: false,
    votes_count: poll.votes ?? 0,
    voters_count: poll.votes,
    options: poll.options.map((option) => ({ title: option.text, votes_count: option.votes })),
    emojis: [],
    voted: poll.voted !== null,
    own_votes: poll.voted === null ? [] : [poll.voted],
  }
}

/** A post as a status of its own, without what a status holds around it (its reblog and quote). */
function fieldsOf(post: Omit<Post, 'quote'>, context: StatusContext): Omit<InnerStatus, 'reblog' | 'quote'> {
  const { publicUrl, readerId } = context
  const id = statusIdOf({ at: post.createdAt, postId: post._id })
  const url = `${publicUrl}/post-detail/${post._id}`
  const account = accountFor(context, post.username)
  return {
    id,
    uri: url,
    url,
    created_at: post.createdAt,
    edited_at: post.editedAt ?? null,
    account,
    content: contentHtml(post.content, publicUrl),
    visibility: VISIBILITY_NAMES[post.visibility],
    sensitive: post.spoilerText !== undefined,
    spoiler_text: post.spoilerText ?? '',
    media_attachments: post.media.map((image, i) =>
      imageAttachment(
        {
          // An upload keeps the id it was given; an image from elsewhere is known by its post's and its place.
          id: context.mediaIdOf(image.url) ?? `${post._id.replace(/-/g, '')}${i === 0 ? '' : i}`,
          url: image.url,
          description: image.alt === '' ? null : image.alt,
          width: image.width,
          height: image.height,
        },
        publicUrl,
      ),
    ),
    application: null,
    mentions: [],
    tags: tagsOf(post.content, publicUrl),
    emojis: mastodonEmojis(publicUrl, post.emojis),
    reblogs_count: post.repostCount,
    favourites_count: post.likes.likeCount,
    replies_count: post.commentCount,
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    language: null,
    text: null,
    poll: pollOf(post),
    card: post.card ? { ...post.card, type: 'link', image: post.card.image === '' ? null : post.card.image } : null,
    ...(readerId === undefined
      ? {}
      : {
          favourited: post.likes.likedBy.some((user) => user._id === readerId),
          reblogged: post.reposted,
          muted: false,
          bookmarked: context.bookmarked.has(post._id),
          // Only the author pins, and only to them does a status say whether it is pinned.
          ...(account.id === readerId ? { pinned: post.pinned === true } : {}),
          // The reader's keyword filters with `warn` that match it here (DECISIONS §15).
          filtered: (post.filtered ?? []).map((result) => ({ ...result, status_matches: null })),
        }),
  }
}

/** The post as a status, with its quote when it has one. */
function shownOf(post: Post, context: StatusContext): ShownStatus {
  const quoted = post.quote
  return {
    ...fieldsOf(post, context),
    reblog: null,
    quote:
      post.quoteOf === undefined
        ? null
        : quoted
          ? { state: 'accepted', quoted_status: { ...fieldsOf(quoted, context), reblog: null, quote: null } }
          : { state: 'deleted', quoted_status: null },
  }
}

/**
 * A timeline's entry as a status: a post shows as itself; a repost as a status of its own, the reposter's,
 * at the time of the repost, holding the post as its reblog.
 */
export function statusOf(post: Post, context: StatusContext): Status {
  const shown = shownOf(post, context)
  const by = post.repostedBy
  const at = post.repostedAt
  if (by === undefined || at === undefined) return shown
  const id = statusIdOf({ at, postId: post._id, by: by._id })
  return {
    ...shown,
    id,
    uri: `${shown.uri}#reposted-by-${by.username}`,
    url: shown.url,
    created_at: at,
    edited_at: null,
    account: accountFor(context, by._id),
    content: '',
    spoiler_text: '',
    sensitive: false,
    media_attachments: [],
    mentions: [],
    tags: [],
    poll: null,
    card: null,
    quote: null,
    reblog: shown,
  }
}

/** A comment as Mastodon's reply: what it answers (its post, or the comment it replies to), and its own. */
export interface CommentEntry {
  post: Post
  comment: Comment
  /** The status it answers, and that status's author's account id. */
  inReplyTo: { id: string; accountId: string }
  /** How many comments answer it. */
  replies: number
}

/** Chirp's comments answer as statuses: text alone, in their post's audience, upvotes as favourites. */
export function commentStatusOf({ post, comment, inReplyTo, replies }: CommentEntry, context: StatusContext): Status {
  const { publicUrl, readerId } = context
  const url = `${publicUrl}/post-detail/${post._id}#comment-${comment._id}`
  const upvoted = comment.votes.upvotedBy
  return {
    id: statusIdOf({ at: comment.createdAt, postId: post._id, commentId: comment._id }),
    uri: url,
    url,
    created_at: comment.createdAt,
    edited_at: comment.updatedAt === comment.createdAt ? null : comment.updatedAt,
    account: accountFor(context, comment.username),
    content: contentHtml(comment.text, publicUrl),
    visibility: VISIBILITY_NAMES[post.visibility],
    sensitive: false,
    spoiler_text: '',
    media_attachments: [],
    application: null,
    mentions: [],
    tags: tagsOf(comment.text, publicUrl),
    emojis: mastodonEmojis(publicUrl, comment.emojis),
    reblogs_count: 0,
    favourites_count: upvoted.length,
    replies_count: replies,
    in_reply_to_id: inReplyTo.id,
    in_reply_to_account_id: inReplyTo.accountId,
    language: null,
    text: null,
    poll: null,
    card: null,
    ...(readerId === undefined
      ? {}
      : {
          favourited: upvoted.some((user) => user._id === readerId),
          reblogged: false,
          muted: false,
          bookmarked: false,
        }),
    reblog: null,
    quote: null,
  }
}
