import { Type, type Static } from '@sinclair/typebox'
import { FilterResultSchema } from './filters.js'
import { DateTimeSchema, EmojiUsesSchema, IdSchema, ListQuerySchema, NextCursorSchema } from './common.js'
import { UserSummarySchema } from './user-summary.js'
import { VisibilitySchema } from './audience.js'
import { LIMITS } from '../../common/limits.js'

export const CommentSchema = Type.Object(
  {
    _id: Type.String(),
    username: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    /** The name its owner chose to show; absent when none, and their first and last name show. */
    displayName: Type.Optional(Type.String()),
    avatarURL: Type.String(),
    text: Type.String(),
    votes: Type.Object({
      upvotedBy: Type.Array(UserSummarySchema),
      downvotedBy: Type.Array(UserSummarySchema),
    }),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
    /** The comment this one answers, always a root of the post's comments; null on a root. */
    replyTo: Type.Union([Type.String(), Type.Null()]),
    /** The custom emoji its text and its author's name show. */
    emojis: Type.Optional(EmojiUsesSchema),
  },
  { title: 'Comment' },
)
export type Comment = Static<typeof CommentSchema>

/** The preview of a post's first https link, fetched by the server after the post is saved. */
export const LinkCardSchema = Type.Object(
  {
    /** The link as the post writes it. */
    url: Type.String(),
    title: Type.String(),
    description: Type.String(),
    /** The page's image, stored by this server as an upload (its upload URL: see POST /media), or '' when it has none. */
    image: Type.String(),
  },
  { title: 'LinkCard' },
)
/** A vote count, null to a reader who has not voted while the poll is open (DECISIONS §11). */
const VotesSchema = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])

const PollSchema = Type.Object(
  {
    options: Type.Array(Type.Object({ text: Type.String(), votes: VotesSchema })),
    /** How many voted, in all. */
    votes: VotesSchema,
    closesAt: DateTimeSchema,
    closed: Type.Boolean(),
    /** The reader's choice, or null. */
    voted: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  },
  { title: 'Poll' },
)
export type Poll = Static<typeof PollSchema>

/** One image of a post. */
export const PostImageSchema = Type.Object(
  {
    url: Type.String(),
    /** Its author's description; '' when none. */
    alt: Type.String(),
    width: Type.Optional(Type.Integer({ minimum: 1 })),
    height: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { title: 'PostImage' },
)
export type PostImage = Static<typeof PostImageSchema>

const postFields = {
  /** The custom emoji its content, content warning and author's name show. */
  emojis: Type.Optional(EmojiUsesSchema),
  _id: Type.String(),
  /** Equal to _id; routes accept either. */
  id: Type.String(),
  username: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  /** The author's chosen name; absent when none, and their first and last name show. */
  displayName: Type.Optional(Type.String()),
  avatarURL: Type.String(),
  content: Type.String(),
  /** '' when the post has no media. */
  mediaUrl: Type.String(),
  /** The same as mediaUrl, for clients of the original mock that read it by this name; never in compact lists. */
  image: Type.Optional(Type.String()),
  /** 'image' when mediaUrl is set, '' otherwise. */
  type: Type.String(),
  /** The image's description, written by its author; only on posts with an image. */
  mediaAlt: Type.Optional(Type.String()),
  /** The stored image's pixel size, when known: absent for an image at an https URL. */
  mediaWidth: Type.Optional(Type.Integer({ minimum: 1 })),
  mediaHeight: Type.Optional(Type.Integer({ minimum: 1 })),
  /**
   * Every image of the post in order, 0 to 4, each with its description ('' when none) and its pixel size
   * when known; the first is also `mediaUrl`, `mediaAlt`, `mediaWidth` and `mediaHeight`.
   */
  media: Type.Array(PostImageSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  /** When its author last edited it; absent on a post never edited. */
  editedAt: Type.Optional(DateTimeSchema),
  /** When the post was imported from its author's archive; `createdAt` is the original date. */
  importedAt: Type.Optional(DateTimeSchema),
  /** The preview of the first https link: null until the server has fetched it, or when there is none. */
  card: Type.Union([LinkCardSchema, Type.Null()]),
  /** The content warning a reader sees before the text and image; absent when none. */
  spoilerText: Type.Optional(Type.String()),
  poll: Type.Optional(PollSchema),
  likes: Type.Object({
    /** How many people like the post; `GET /api/posts/{id}/likes` pages them. */
    likeCount: Type.Integer({ minimum: 0 }),
    /** At most 20: the reader first when they like the post, then the most recent likers. */
    likedBy: Type.Array(UserSummarySchema),
    dislikedBy: Type.Array(UserSummarySchema),
  }),
  /** The newest comments, at most 20, oldest first; none in compact lists. */
  comments: Type.Array(CommentSchema),
  /** The true number of comments, however many `comments` holds (a bounded list, empty in a compact one). */
  commentCount: Type.Integer({ minimum: 0 }),
  /** How many people repost it. */
  repostCount: Type.Integer({ minimum: 0 }),
  /** Whether the reader reposts it (false for a reader not signed in). */
  reposted: Type.Boolean(),
  /** The id of the post it quotes, when it quotes one. */
  quoteOf: Type.Optional(Type.String()),
  /**
   * Who may quote it, by its author's quote controls (DECISIONS §15): `followers` or `nobody`; absent,
   * anyone who may read it. The author may always quote their own posts.
   */
  quotePolicy: Type.Optional(Type.Union([Type.Literal('followers'), Type.Literal('nobody')])),
  /** On a post its author pinned to their profile. */
  pinned: Type.Optional(Type.Literal(true)),
  /** Who may read it (DECISIONS §12), chosen when it was written. */
  visibility: VisibilitySchema,
  /** On a direct post: the conversation it is in (`GET /api/conversations/{conversationId}`). */
  conversationId: Type.Optional(Type.String()),
  /** On a direct post that answers another: the id of the post it answers. */
  inReplyTo: Type.Optional(Type.String()),
  /** On a post of a person of another server (DECISIONS §14). */
  remote: Type.Optional(Type.Literal(true)),
  /** A remote post's page on its own server. */
  url: Type.Optional(Type.String()),
  /** A remote post's content as its server wrote it, sanitized to links, paragraphs, line breaks and spans. */
  contentHtml: Type.Optional(Type.String()),
}

/** A quoted post, in its `compact=1` form; its own quote is named by `quoteOf` only. */
export const QuotedPostSchema = Type.Object(postFields, { title: 'QuotedPost' })

export const PostSchema = Type.Object(
  {
    ...postFields,
    /** On a post with `quoteOf`: the quoted post, or null when it was deleted or is hidden from the reader. */
    quote: Type.Optional(Type.Union([QuotedPostSchema, Type.Null()])),
    /** In a home feed, on a post there because someone reposted it: who, and when. */
    repostedBy: Type.Optional(UserSummarySchema),
    repostedAt: Type.Optional(DateTimeSchema),
    /** The reader's keyword filters with `warn` that the post matches where it is read (DECISIONS §15). */
    filtered: Type.Optional(Type.Array(FilterResultSchema)),
  },
  { title: 'Post' },
)
export type Post = Static<typeof PostSchema>

const ContentSchema = Type.String({ maxLength: LIMITS.postContent })
/** '' or a /media/ path of this server or an absolute https URL; the service checks which. */
const MediaUrlSchema = Type.String({ maxLength: LIMITS.mediaUrl })
const MediaAltSchema = Type.String({ maxLength: LIMITS.mediaAlt })
const CommentTextSchema = Type.String({ minLength: 1, maxLength: LIMITS.comment })
/** '' clears the warning. */
const SpoilerTextSchema = Type.String({ maxLength: LIMITS.spoilerText })
const { poll } = LIMITS
const PollDataSchema = Type.Object({
  options: Type.Array(Type.String({ minLength: 1, maxLength: poll.option }), {
    minItems: poll.minOptions,
    maxItems: poll.maxOptions,
  }),
  days: Type.Integer({ minimum: poll.minDays, maximum: poll.maxDays }),
})
export type PollData = Static<typeof PollDataSchema>

/**
 * Body of post create and edit. The original client wraps it as `{ postData }`; routes unwrap the
 * wrapper before validation, so both forms are accepted. `image` and `imageUrl` are read as `mediaUrl`;
 * sent beside it, an edit weighs them against the stored value (docs/api-contract.md §1).
 */
export const PostDataSchema = Type.Object({
  content: Type.Optional(ContentSchema),
  mediaUrl: Type.Optional(MediaUrlSchema),
  image: Type.Optional(MediaUrlSchema),
  imageUrl: Type.Optional(MediaUrlSchema),
  mediaAlt: Type.Optional(MediaAltSchema),
  /**
   * The post's images in order, each with its description (DECISIONS §17): 1 to 4, or none; sent, it wins
   * over `mediaUrl` and `mediaAlt`, and on edit replaces every image. More than 4 is a 400.
   */
  media: Type.Optional(
    Type.Array(Type.Object({ url: MediaUrlSchema, alt: Type.Optional(MediaAltSchema) }), { maxItems: 20 }),
  ),
  spoilerText: Type.Optional(SpoilerTextSchema),
  /** On create only: an edit leaves the poll as it is. */
  poll: Type.Optional(PollDataSchema),
  /** On create only: the id of the post this one quotes. */
  quoteOf: Type.Optional(IdSchema),
  /** On create only: who may read it; absent, the author's `defaultVisibility`. An edit keeps the audience. */
  visibility: Type.Optional(VisibilitySchema),
  /**
   * On create only: the id of a direct post the author may read, which this one answers in its conversation,
   * to the same people whatever the text mentions; the post is then direct (`visibility` absent or `direct`).
   */
  inReplyTo: Type.Optional(IdSchema),
  /**
   * On create only: when to publish it (DECISIONS §15), at least 5 minutes ahead; the post is then kept,
   * and published by the job queue at that time, not now.
   */
  scheduledAt: Type.Optional(DateTimeSchema),
  type: Type.Optional(Type.Union([Type.Literal('image'), Type.Literal('')])),
  /** The original client sends the author's names; the server always uses the author's profile. */
  firstName: Type.Optional(Type.String({ maxLength: LIMITS.name })),
  lastName: Type.Optional(Type.String({ maxLength: LIMITS.name })),
})
export type PostData = Static<typeof PostDataSchema>

export const CommentDataSchema = Type.Object({
  text: CommentTextSchema,
  /** On create: the comment of the same post this one answers, at any depth (threads are trees). */
  replyTo: Type.Optional(Type.Union([IdSchema, Type.Null()])),
})

export const VoteDataSchema = Type.Object({ choice: Type.Integer({ minimum: 0 }) })

export const PostIdParamsSchema = Type.Object({ postId: IdSchema }, { additionalProperties: false })
export const IdParamsSchema = Type.Object({ id: IdSchema }, { additionalProperties: false })
export const CommentParamsSchema = Type.Object(
  { postId: IdSchema, commentId: IdSchema },
  { additionalProperties: false },
)

const FeedSortSchema = Type.Union([Type.Literal('latest'), Type.Literal('oldest'), Type.Literal('trending')])
export type FeedSort = Static<typeof FeedSortSchema>
/** `list`: one of the caller's lists (DECISIONS §15), its people's posts newest first (`sort` then is ignored). */
export const FeedQuerySchema = Type.Composite([
  ListQuerySchema,
  Type.Object({
    sort: Type.Optional(FeedSortSchema),
    list: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }),
])
export type FeedQuery = Static<typeof FeedQuerySchema>
/** `filter=media`: only the posts with an image (a profile's Media tab). */
export const UserPostsQuerySchema = Type.Composite([
  ListQuerySchema,
  Type.Object({ filter: Type.Optional(Type.Literal('media')) }),
])
export type UserPostsQuery = Static<typeof UserPostsQuerySchema>

export const PostsReplySchema = Type.Object({ posts: Type.Array(PostSchema), nextCursor: NextCursorSchema })
export const FeedReplySchema = Type.Object({
  posts: Type.Array(PostSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})
export const PostReplySchema = Type.Object({ post: PostSchema })
/** Post and comment writes: every post plus the changed one, or only `{ post }` / `{}` with Prefer: return=minimal. */
export const PostWriteReplySchema = Type.Object({
  posts: Type.Optional(Type.Array(PostSchema)),
  post: Type.Optional(PostSchema),
})
/**
 * Comment writes: as post writes, plus the changed post's `comments` in the full answer, which one
 * generation of clients of the original mock reads after every comment write (docs/api-contract.md §2).
 */
export const CommentWriteReplySchema = Type.Composite([
  PostWriteReplySchema,
  Type.Object({ comments: Type.Optional(Type.Array(CommentSchema)) }),
])
export const CommentsReplySchema = Type.Object({ comments: Type.Array(CommentSchema), nextCursor: NextCursorSchema })
export const BookmarksReplySchema = Type.Object({ bookmarks: Type.Array(PostSchema), nextCursor: NextCursorSchema })

/** Who likes a post, newest like first, a page at a time. */
export const LikersReplySchema = Type.Object({
  users: Type.Array(UserSummarySchema),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})
