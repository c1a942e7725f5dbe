import { parseRichText } from '../../common/text-rules.js'
import type { Post } from '../schemas/posts.js'
import { statusIdOf } from '../services/status-ids.js'
import { VISIBILITY_NAMES, absolute, escapeHtml } from './account-entity.js'
import type { Account } from './schemas.js'
import type { InnerStatus, ShownStatus, Status } from './status-schemas.js'

/** What a page of statuses is drawn from besides its posts: their people's accounts and the reader's marks. */
export interface StatusContext {
  publicUrl: string
  /** Accounts by username and by id. */
  accounts: ReadonlyMap<string, Account>
  readerId: string | undefined
  /** The posts the reader bookmarked. */
  bookmarked: ReadonlySet<string>
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
function contentHtml(text: string, publicUrl: string): string {
  return text
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== '')
    .map((part) => `<p>${paragraphHtml(part, publicUrl)}</p>`)
    .join('')
}

function accountFor(context: StatusContext, key: string): Account {
  const account = context.accounts.get(key)
  if (!account) throw new Error(`no account for ${key}`)
  return account
}

const pollOf = (post: Pick<Post, '_id' | 'poll'>): InnerStatus['poll'] => {
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
  const media = post.mediaUrl === '' ? '' : absolute(publicUrl, post.mediaUrl)
  const account = accountFor(context, post.username)
  const width = post.mediaWidth
  const height = post.mediaHeight
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
    media_attachments:
      media === ''
        ? []
        : [
            {
              id: post._id.replace(/-/g, ''),
              type: 'image',
              url: media,
              preview_url: media,
              remote_url: null,
              description: post.mediaAlt ?? null,
              blurhash: null,
              meta:
                width !== undefined && height !== undefined
                  ? { original: { width, height, size: `${width}x${height}`, aspect: width / height } }
                  : {},
            },
          ],
    application: null,
    mentions: [],
    tags: parseRichText(post.content).flatMap((segment) =>
      segment.kind === 'tag' ? [{ name: segment.tag, url: tagUrl(publicUrl, segment.tag) }] : [],
    ),
    emojis: [],
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
