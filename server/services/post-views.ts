import { emojiLookup, postWithEmojis } from './custom-emojis.js'
import type { Poll, Post, PostImage } from '../schemas/posts.js'
import { DEFAULT_VISIBILITY } from '../../common/audience.js'
import { SHOWN_OF_A_POST as SHOWN, type PostRecord, type StoreReader, type UserSummaryRecord } from '../store/types.js'
import type { ReadCacheView } from './deps.js'
import { pollViewsFor } from './poll-views.js'
import { readableBy, readableOf } from './audience-reads.js'
import type { Hidden } from './visibility.js'
import { lookup, summaries, summaryById, summaryOf, toComment, type UserLookup } from './views.js'

/**
 * Posts as clients see them (docs/api-contract.md §2): bounded, so that a post's size never grows with
 * its popularity. `likedBy` and `dislikedBy` show at most SHOWN people, the most recent, and `comments`
 * the SHOWN newest, beside the true `likeCount` and `commentCount`; below SHOWN nothing is left out.
 */

/** Who reads a list, and whether they asked for compact posts (`compact=1`). */
export interface Reader {
  readonly userId: string | undefined
  readonly compact: boolean
  /** Whose likes and comments the reader's views leave out (services/visibility.ts); nobody's when absent. */
  readonly hidden?: Hidden
  /** When the reader reads, which decides whether a poll is closed; now when absent. */
  readonly at?: Date
  /** The app's read cache as this read sees it; views are drawn afresh without it. */
  readonly cache?: ReadCacheView
}
const ANYONE: Reader = { userId: undefined, compact: false }

const lastOf = <T>(items: readonly T[]) => (items.length > SHOWN ? items.slice(-SHOWN) : items)

/** A post's images as its view shows them, the first first, each with its description ('' when none). */
export function postImagesOf(
  post: Pick<PostRecord, 'mediaUrl' | 'mediaAlt' | 'mediaWidth' | 'mediaHeight' | 'moreMedia'>,
): PostImage[] {
  if (post.mediaUrl === '') return []
  const first = { url: post.mediaUrl, alt: post.mediaAlt, width: post.mediaWidth, height: post.mediaHeight }
  return [first, ...(post.moreMedia ?? [])].map(({ url, alt, width, height }) => ({
    url,
    alt: alt ?? '',
    ...(width !== undefined && height !== undefined ? { width, height } : {}),
  }))
}

/** Who may quote the post, shown only when its author limits it (DECISIONS §15). */
const quotePolicyOf = (author: UserSummaryRecord | undefined) =>
  author?.quotePolicy ? { quotePolicy: author.quotePolicy } : {}

function buildPost(post: PostRecord, users: UserLookup): Post {
  const { _id: _authorId, ...author } = summaryById(post.authorId, users)
  return {
    _id: post._id,
    id: post._id,
    ...author,
    content: post.content,
    mediaUrl: post.mediaUrl,
    image: post.mediaUrl,
    type: post.type,
    ...(post.mediaAlt !== undefined ? { mediaAlt: post.mediaAlt } : {}),
    ...(post.mediaWidth !== undefined && post.mediaHeight !== undefined
      ? { mediaWidth: post.mediaWidth, mediaHeight: post.mediaHeight }
      : {}),
    media: postImagesOf(post),
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    ...(post.editedAt !== undefined ? { editedAt: post.editedAt } : {}),
    card: post.card ? { ...post.card } : null,
    ...(post.spoilerText !== undefined ? { spoilerText: post.spoilerText } : {}),
    ...(post.importedAt !== undefined ? { importedAt: post.importedAt } : {}),
    likes: {
      likeCount: post.likeCount,
      likedBy: summaries(lastOf(post.likedBy), users),
      dislikedBy: summaries(lastOf(post.dislikedBy), users),
    },
    comments: lastOf(post.comments).map((comment) => toComment(comment, users)),
    commentCount: post.commentCount,
    repostCount: post.repostCount ?? 0,
    reposted: false,
    ...(post.quoteOf !== undefined ? { quoteOf: post.quoteOf } : {}),
    ...quotePolicyOf(users.get(post.authorId)),
    ...(post.pinnedAt !== undefined ? { pinned: true as const } : {}),
    visibility: post.visibility ?? DEFAULT_VISIBILITY,
    ...(post.conversationId !== undefined ? { conversationId: post.conversationId } : {}),
    ...(post.inReplyTo !== undefined ? { inReplyTo: post.inReplyTo } : {}),
    ...(post.remote ? { remote: true as const, url: post.remote.url, contentHtml: post.remote.html } : {}),
  }
}

/** A list's post: no people but the author, and no aliases (docs/api-contract.md §2, compact lists). */
function compactOf(view: Post): Post {
  const { image: _alias, likes, comments: _comments, ...rest } = view
  return { ...rest, likes: { likeCount: likes.likeCount, likedBy: [], dislikedBy: [] }, comments: [] }
}

/** A post's view as anyone sees it, kept with the record it was drawn from. */
interface CachedPost {
  record: PostRecord
  view: Post
  /** The compact form of `view`, made when first asked for. */
  compact: Post | undefined
}

/**
 * Views of posts are kept in the app's read cache by post id: feeds read the same posts over and over,
 * and building a view is much of what a read costs. A view is drawn from its post and the people it
 * shows, so a change to the post (a like, a comment, an edit) or to anyone's profile voids it.
 */
const keyOf = (postId: string) => `post ${postId}`

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/** Every user id a post's view shows: its author, and the likes, comments and votes it holds. */
function shownIn(post: PostRecord): string[] {
  const ids = new Set<string>([post.authorId, ...lastOf(post.likedBy), ...lastOf(post.dislikedBy)])
  for (const comment of lastOf(post.comments)) {
    ids.add(comment.authorId)
    for (const id of comment.upvotedBy) ids.add(id)
    for (const id of comment.downvotedBy) ids.add(id)
  }
  return [...ids]
}

/** Variants kept of one view: past this many (a post read by many readers who like it), they start again. */
const VARIANTS_MAX = 64
const variants = new WeakMap<object, Map<string, Post>>()

/**
 * `view` as one reader or one feed entry sees it (the reader among its likers, reposted by them, reposted
 * by someone they follow), made by `make` once for each `key` and frozen while `view` is kept (frozen):
 * so ReadCache.json keeps its bytes as it does the kept view's, rather than a reply serialising it on
 * every read. The variants go with the view they were made from. `key` must name everything `make` adds.
 */
export function variantOf(view: Post, key: string, make: (view: Post) => Post): Post {
  if (!Object.isFrozen(view)) return make(view)
  let made = variants.get(view)
  if (!made || made.size >= VARIANTS_MAX) variants.set(view, (made = new Map<string, Post>()))
  let variant = made.get(key)
  if (!variant) made.set(key, (variant = deepFreeze(make(view))))
  return variant
}

function entryOf(post: PostRecord, users: UserLookup): CachedPost {
  return { record: post, view: deepFreeze(buildPost(post, users)), compact: undefined }
}

/**
 * The entry's view as `reader` sees it. A reader who likes the post is always shown: first among the
 * likers of a post with more than SHOWN, and as the one liker of a compact post. Only those views are
 * made per reader; every other reader shares the kept ones. `me` is the reader's summary when they
 * like the post.
 */
function viewFor(entry: CachedPost, reader: Reader, me: UserSummaryRecord | undefined): Post {
  const { record } = entry
  const hidden = reader.hidden?.people ?? []
  if (!reader.compact && hidden.length > 0)
    return withoutHidden(viewFor(entry, { ...reader, hidden: undefined }, me), entry, new Set(hidden))
  if (reader.compact) {
    const compact = (entry.compact ??= deepFreeze(compactOf(entry.view)))
    if (!me) return compact
    const liker = summaryOf(me)
    return variantOf(compact, `liked ${JSON.stringify(liker)}`, (view) => ({
      ...view,
      likes: { ...view.likes, likedBy: [liker] },
    }))
  }
  if (!me || record.likeCount <= SHOWN) return entry.view
  const liker = summaryOf(me)
  return variantOf(entry.view, `liked ${JSON.stringify(liker)}`, (view) => {
    const others = view.likes.likedBy.filter((user) => user._id !== liker._id).slice(-(SHOWN - 1))
    return { ...view, likes: { ...view.likes, likedBy: [liker, ...others] } }
  })
}

/**
 * A full view without the likes and comments of people hidden from its reader. Its comments were drawn
 * from the record's newest, in the same order, so each one's author is found by its place.
 */
function withoutHidden(view: Post, entry: CachedPost, hidden: ReadonlySet<string>): Post {
  const authors = lastOf(entry.record.comments).map((comment) => comment.authorId)
  const shown = (user: { _id: string }) => !hidden.has(user._id)
  return {
    ...view,
    likes: {
      ...view.likes,
      likedBy: view.likes.likedBy.filter(shown),
      dislikedBy: view.likes.dislikedBy.filter(shown),
    },
    comments: view.comments.filter((_, i) => !hidden.has(authors[i] ?? '')),
  }
}

/** Every user the views of a set of posts show, fetched in one call. */
async function usersOfPosts(store: StoreReader, posts: readonly PostRecord[]): Promise<UserLookup> {
  return lookup(store, new Set(posts.flatMap(shownIn)))
}

/** The entries of several posts: those the read cache keeps, and the others drawn with one lookup of the people they show. */
async function entriesOf(
  store: StoreReader,
  posts: readonly PostRecord[],
  cache?: ReadCacheView,
): Promise<CachedPost[]> {
  const kept = posts.map((post) => cache?.get<CachedPost>(keyOf(post._id)))
  const missing = posts.filter((_, i) => kept[i] === undefined)
  if (missing.length === 0) return kept as CachedPost[]
  const users = await usersOfPosts(store, missing)
  return posts.map((post, i) => {
    const found = kept[i]
    if (found) return found
    const entry = entryOf(post, users)
    cache?.set(keyOf(post._id), entry, [`post:${post._id}`, 'people'])
    return entry
  })
}

/** Views of several posts as `reader` sees them; the reader's own summary is read only when one shows it. */
export async function postViews(store: StoreReader, posts: readonly PostRecord[], reader = ANYONE): Promise<Post[]> {
  const [views, known] = await Promise.all([
    plainPostViews(store, posts, reader),
    posts.length === 0 ? new Map<string, string>() : emojiLookup(store),
  ])
  return views.map((view) => postWithEmojis(view, known))
}

/** Views of several posts as `reader` sees them, without the custom emoji they show. */
async function plainPostViews(store: StoreReader, posts: readonly PostRecord[], reader: Reader): Promise<Post[]> {
  const views = await ownViews(store, posts, reader)
  const [reposted, quotes] = await Promise.all([repostedBy(store, posts, reader), quotesOf(store, posts, reader)])
  if (reposted.size === 0 && quotes === undefined) return views
  return views.map((view) => {
    const withState = reposted.has(view._id) ? asReposted(view) : view
    return view.quoteOf === undefined || quotes === undefined
      ? withState
      : { ...withState, quote: quotes.get(view.quoteOf) ?? null }
  })
}

/** The view as the reader who reposted it sees it. */
const asReposted = (view: Post) => variantOf(view, 'reposted', (v) => ({ ...v, reposted: true }))

/** Which of the posts the reader reposts: asked only about posts somebody reposts. */
async function repostedBy(store: StoreReader, posts: readonly PostRecord[], reader: Reader): Promise<Set<string>> {
  const asked = posts.filter((post) => (post.repostCount ?? 0) > 0).map((post) => post._id)
  if (reader.userId === undefined || asked.length === 0) return new Set()
  return store.repostedAmong(reader.userId, asked)
}

/**
 * The posts the posts quote, in their compact form as the reader sees them, by id; one that is gone, whose
 * author is hidden from the reader (a block either way, a mute, a suspension) or that the reader may not
 * read (its audience) is missing, and reads null. A quoted post's own quote is named by its `quoteOf`
 * alone, so quotes never nest.
 */
async function quotesOf(
  store: StoreReader,
  posts: readonly PostRecord[],
  reader: Reader,
): Promise<Map<string, Post> | undefined> {
  const ids = [...new Set(posts.flatMap((post) => (post.quoteOf === undefined ? [] : [post.quoteOf])))]
  if (ids.length === 0) return undefined
  const hidden = new Set(reader.hidden?.people ?? [])
  const shown = (await store.getPosts(ids)).filter((post) => !hidden.has(post.authorId))
  const quoted = await readableOf(store, shown, reader.userId)
  const compact = { ...reader, compact: true }
  const [views, reposted] = await Promise.all([ownViews(store, quoted, compact), repostedBy(store, quoted, compact)])
  return new Map(views.map((view) => [view._id, reposted.has(view._id) ? asReposted(view) : view]))
}

/** The views without what comes from other posts and the reader's reposts. */
async function ownViews(store: StoreReader, posts: readonly PostRecord[], reader: Reader): Promise<Post[]> {
  const entries = await entriesOf(store, posts, reader.cache)
  const { userId } = reader
  // Only where a view shows the reader apart from the rest: in a compact list, or past SHOWN likers.
  const asked = entries.filter(({ record }) => record.likeCount > 0 && (reader.compact || record.likeCount > SHOWN))
  const liked =
    userId === undefined || asked.length === 0
      ? new Set<string>()
      : await store.likedAmong(
          userId,
          asked.map((e) => e.record._id),
        )
  const [me] = liked.size > 0 && userId !== undefined ? await store.getUserSummaries([userId]) : []
  const polls = await pollsFor(store, posts, reader)
  const views = entries.map((entry) => {
    const view = viewFor(entry, reader, liked.has(entry.record._id) ? me : undefined)
    const poll = polls.get(entry.record._id)
    return poll ? { ...view, poll } : view
  })
  return withoutSuspendedLikes(store, views, reader.hidden?.suspended ?? [])
}

/** While someone is suspended their likes do not count (DECISIONS §11): each view's likeCount leaves them out. */
async function withoutSuspendedLikes(store: StoreReader, views: Post[], suspended: readonly string[]): Promise<Post[]> {
  const liked = views.filter((view) => view.likes.likeCount > 0).map((view) => view._id)
  if (suspended.length === 0 || liked.length === 0) return views
  const theirs = await store.countLikesBy(liked, suspended)
  if (theirs.size === 0) return views
  return views.map((view) => {
    const count = theirs.get(view._id)
    return count === undefined ? view : { ...view, likes: { ...view.likes, likeCount: view.likes.likeCount - count } }
  })
}

/** The polls among the posts as the reader sees them: the only part of a view drawn for each reader afresh. */
async function pollsFor(store: StoreReader, posts: readonly PostRecord[], reader: Reader) {
  const polls = posts.flatMap((post) => (post.poll ? [{ postId: post._id, poll: post.poll }] : []))
  if (polls.length === 0) return new Map<string, Poll>()
  const voters = [...(reader.userId !== undefined ? [reader.userId] : []), ...(reader.hidden?.suspended ?? [])]
  const votes =
    voters.length === 0
      ? []
      : await store.pollVotesOf(
          polls.map((poll) => poll.postId),
          voters,
        )
  return pollViewsFor(polls, votes, reader.userId, reader.at ?? new Date())
}

/**
 * A user's own bookmarks as full current posts, newest bookmark first, at most as many as an unpaged list
 * holds: those they may still read.
 */
export async function ownBookmarks(store: StoreReader, userId: string): Promise<Post[]> {
  const { items } = await store.listBookmarks(userId, { limit: MAX_OWN_BOOKMARKS, audience: readableBy(userId) })
  return postViews(store, items)
}

const MAX_OWN_BOOKMARKS = 1000
