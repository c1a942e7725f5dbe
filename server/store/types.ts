import type { ChirpEvent, EventAudience } from '../schemas/events.js'
import type { FeedSort } from '../schemas/posts.js'
import type {
  AuditEntryRecord,
  InviteRecord,
  ReportRecord,
  ReportResolution,
  ReportStatus,
  Role,
  Suspension,
} from './moderation-types.js'
import type { NotificationIdentity, NotificationMatch, NotificationRecord, UnreadCount } from './notification-types.js'

import type { JobRecord, JobStore, NewJob } from './job-types.js'
import type {
  AppRecord,
  AuthorizationCodeRecord,
  ClientAppReads,
  ClientAppWrites,
  MarkerRecord,
  PushSubscriptionRecord,
  CustomEmojiRecord,
} from './client-app-types.js'
import type { QuotePolicy, Visibility } from '../../common/audience.js'
import type { MailKind } from '../../common/notification-settings.js'
import type { FilterListReads, FilterListWrites, FilterRecord, ListRecord } from './filter-list-types.js'
import type { PostPlanReads, PostPlanWrites, PostVersionRecord, ScheduledPostRecord } from './post-plan-types.js'

export type * from './notification-types.js'
export type * from './moderation-types.js'
export type * from './job-types.js'
export type * from './client-app-types.js'
export type * from './filter-list-types.js'

/** Stored records are immutable: a change replaces the record, so reads can share them safely. */
export interface UserRecord {
  readonly _id: string
  readonly username: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  /** `scrypt$N$r$p$salt$hash`, never sent to a client. */
  readonly passwordHash: string
  readonly avatarURL: string
  /** The name shown above the username; absent or empty: the first and last name. */
  readonly displayName?: string
  /** A wide image at the top of the profile: an upload of this server or an https URL; absent or empty: none. */
  readonly bannerURL?: string
  readonly bio: string
  readonly website: string
  readonly createdAt: string
  readonly updatedAt: string
  /** Post ids, oldest bookmark first. */
  readonly bookmarks: readonly string[]
  /** User ids; kept symmetric with the other users' `followers`. */
  readonly following: readonly string[]
  readonly followers: readonly string[]
  /** Raised on logout everywhere so that tokens issued before it stop working. */
  readonly tokenVersion: number
  /** Absent: `user` (accounts made before roles). */
  readonly role?: Role
  /** Absent when the account has never been suspended or the suspension was lifted. */
  readonly suspension?: Suspension
  /** A signup waiting for a moderator's approval (REGISTRATION=approval); absent once approved. */
  readonly pending?: true
  /**
   * Whom the user blocks and mutes, oldest first: kept on the record by the embedded store (absent in
   * databases written before blocks existed); PostgreSQL keeps them in tables of their own and leaves these out.
   */
  readonly blocking?: readonly string[]
  readonly muting?: readonly MuteRecord[]
  /**
   * Two-factor sign-in, once set up. The embedded store keeps it on the record, PostgreSQL in a table of
   * its own that its user reads leave out: read it with getTwoFactor.
   */
  readonly twoFactor?: TwoFactorRecord
  /**
   * The ids of the posts the user likes, oldest like first: kept on the record by the embedded store
   * (worked out from the posts when a database written before it is loaded); PostgreSQL reads
   * post_reactions instead and leaves it out.
   */
  readonly likes?: readonly string[]
  /**
   * Where each entry of the four lists above (bookmarks, likes, blocks, mutes) stands, for their pages
   * (store/list-places.ts): kept on the record by the embedded store, absent in records written before
   * it and with PostgreSQL, whose rows carry their own `seq`.
   */
  readonly places?: ListPlacesRecord
  /** The audience the user's new posts get when they choose none; absent: `public` (DECISIONS §12). */
  readonly defaultVisibility?: Visibility
  /** False: the composer posts an image without a description without asking first; absent, it asks. */
  readonly altTextReminder?: boolean
  /** The kinds of notification the user is mailed about, batched (DECISIONS §15); absent: none. */
  readonly mailAlerts?: readonly MailKind[]
  /** When the newest notification the user was mailed about was made; absent: none yet. */
  readonly mailedThrough?: string
  /** Who may quote the user's posts; absent: anyone (DECISIONS §15). */
  readonly quotePolicy?: Exclude<QuotePolicy, 'anyone'>
  /** Whether following the user takes their approval (a follow request); absent: open to all. */
  readonly locked?: true
  /**
   * Who asks to follow the user and waits for their answer, oldest request first: kept on the record by
   * the embedded store (absent when nobody waits); PostgreSQL keeps them in a table of its own and leaves
   * this out. A request is never a follow: whoever asks is in nobody's `following` until it is accepted.
   */
  readonly followRequests?: readonly string[]
  /**
   * The user's places in conversations of direct posts: kept on the record by the embedded store (absent:
   * none); PostgreSQL keeps them in tables of their own and leaves this out: read them with getConversation
   * and listConversations.
   */
  readonly directConversations?: readonly ConversationMembership[]
  /**
   * The person's key pairs for federation, made the first time their actor is asked for. The embedded
   * store keeps them on the record; PostgreSQL in a table of its own that its user reads leave out: read
   * them with getActorKeys. Never part of an export.
   */
  readonly actorKeys?: ActorKeysRecord
  /**
   * A person of another server (DECISIONS §14), known by their actor: their username is `name@host`, they
   * have no password, e-mail or keys of ours and cannot sign in. Absent for the server's own people.
   */
  readonly remote?: RemoteActorRecord
  /**
   * The person's keyword filters and lists (DECISIONS §15), the oldest first: kept on the record by the
   * embedded store (absent: none); PostgreSQL keeps them in tables of their own and leaves these out:
   * read them with listFilters and listLists.
   */
  readonly filters?: readonly FilterRecord[]
  readonly lists?: readonly ListRecord[]
  /**
   * The person's scheduled posts (DECISIONS §15), in the order they were made: kept on the record by the
   * embedded store (absent: none); PostgreSQL keeps them in a table and leaves this out.
   */
  readonly scheduledPosts?: readonly ScheduledPostRecord[]
}

/** Where a remote person's actor is and what it said when it was last fetched. */
export interface RemoteActorRecord {
  /** The actor's id (a URL): who the person is to ActivityPub. */
  readonly actorId: string
  readonly inbox: string
  /** Their server's shared inbox, when it has one. */
  readonly sharedInbox?: string
  /** Their page on their server. */
  readonly url: string
  /** The ids of the keys the actor named as its own, which may sign what it sends. */
  readonly keyIds: readonly string[]
  readonly fetchedAt: string
}

/**
 * A person's RSA and Ed25519 key pairs (DECISIONS §14): public keys as JWK (JSON), private keys as JWK
 * sealed with a key of the server's (services/account-secrets.ts), so a dump of the data alone cannot sign.
 */
export interface ActorKeysRecord {
  readonly rsaPublic: string
  readonly rsaPrivate: string
  readonly ed25519Public: string
  readonly ed25519Private: string
  readonly createdAt: string
}

export type { LocalCounts } from './client-app-types.js'
export type { PostVersionRecord, ScheduledPostData, ScheduledPostRecord } from './post-plan-types.js'

/**
 * The key-value store Fedify keeps its caches and replay guards in (server/federation/kv-store.ts): keys
 * are text, values JSON text, each with an optional expiry after which it is gone.
 */
export interface FederationKv {
  /** The value, unless absent or expired at `at`. */
  get(key: string, at: string): Promise<string | undefined>
  set(key: string, value: string, expiresAt: string | undefined): Promise<void>
  delete(key: string): Promise<void>
  /**
   * Sets the value only if it is `expected` now (undefined: absent or expired), in one step however many
   * instances try at once; whether it was set.
   */
  compareAndSet(
    key: string,
    expected: string | undefined,
    value: string,
    expiresAt: string | undefined,
    at: string,
  ): Promise<boolean>
}

/**
 * The places of a user's lists, each aligned with its list (oldest first), and the highest place given
 * in any of them, above which the next entry's goes.
 */
export interface ListPlacesRecord {
  readonly last: number
  readonly bookmarks: readonly number[]
  readonly likes: readonly number[]
  readonly blocking: readonly number[]
  readonly muting: readonly number[]
  /** Absent on records written before follow requests had places; numbered in order then. */
  readonly followRequests: readonly number[]
}

/**
 * One person's place in a conversation of direct posts (DECISIONS §12), as the embedded store keeps it on
 * their record: each participant holds one, under the conversation's one id.
 */
export interface ConversationMembership {
  /** The conversation's id, the same in every participant's membership. */
  readonly _id: string
  /** Everyone it is between, the holder too, sorted: the set it is found by, never changed (see openConversation). */
  readonly participantIds: readonly string[]
  /** When a direct post last reached the holder in it: their conversations are listed by this, newest first. */
  readonly activeAt: string
  /** The posts of it that reached the holder and that they have not read yet, oldest first. */
  readonly unread: readonly string[]
  /** The holder hid it; the next post that reaches them in it shows it again. */
  readonly hidden?: true
}

/**
 * A conversation of direct posts as one of its participants (the reader) sees it: what getConversation and
 * listConversations answer. The people whose posts count for nothing here (`hide`) are those the reader's
 * read leaves out: their posts are neither its last post nor unread.
 */
export interface ConversationRecord {
  readonly _id: string
  /** Its participants whose accounts still exist, the reader too, sorted. */
  readonly participantIds: readonly string[]
  /** The newest of its posts the reader may read (they wrote it, or it addressed them); absent when none is left. */
  readonly lastPost?: PostRecord
  /** How many of its posts reached the reader and are still unread. */
  readonly unread: number
  /** When a post last reached the reader in it. */
  readonly activeAt: string
  /** Whether the reader hid it. */
  readonly hidden: boolean
}

/** A mute of one person: until `until`, or for ever without it. */
export interface MuteRecord {
  readonly userId: string
  readonly until?: string
}

/**
 * Where one person stands with others, as the visibility layer (services/visibility.ts) reads it: whom
 * they block, who blocks them, and whom they mute with a mute still running.
 */
export interface Relations {
  readonly blocking: readonly string[]
  readonly blockedBy: readonly string[]
  readonly muting: readonly MuteRecord[]
}

/** Between a viewer and one other person. */
export interface Relation {
  /** The viewer blocks them. */
  readonly blocks: boolean
  /** They block the viewer. */
  readonly blockedBy: boolean
  /** The viewer mutes them, and the mute is still running. */
  readonly mutes: boolean
}

/** A user's TOTP (RFC 6238) state: set up, then enabled once a code proved the authenticator has it. */
export interface TwoFactorRecord {
  /** The shared secret, sealed with a key of the server's (account-secrets.ts): a dump of the data alone does not give it. */
  readonly secret: string
  /** False between setup and the first code. */
  readonly enabled: boolean
  /** The newest time step a code was accepted for: a code of it or of an earlier one is refused (RFC 6238 §5.2). */
  readonly lastStep: number
  /** The SHA-256 of each recovery code not used yet. */
  readonly recoveryCodes: readonly string[]
}

/** What proves a second factor: a TOTP code's time step, or a recovery code's SHA-256. */
export type TwoFactorProof = { step: number } | { recoveryCode: string }

export type TokenHolder = Pick<UserRecord, '_id' | 'username' | 'tokenVersion'>

/**
 * A user's own record without the lists that grow with their audience (follows, bookmarks) and what
 * PostgreSQL keeps in tables of their own (blocks, mutes, two-factor state): what a check of who someone
 * is (their role, suspension, pending signup) reads.
 */
export type AccountRecord = Omit<
  UserRecord,
  | 'bookmarks'
  | 'following'
  | 'followers'
  | 'blocking'
  | 'muting'
  | 'twoFactor'
  | 'actorKeys'
  | 'followRequests'
  | 'places'
  | 'directConversations'
  | 'filters'
  | 'lists'
  | 'scheduledPosts'
>

/** A token logged out before it expired: refused until then, and forgotten after. */
export interface RevokedTokenRecord {
  /** The token's id (its `jti`). */
  readonly _id: string
  readonly userId: string
  /** When the token itself expires; past it the token is refused anyway. */
  readonly expiresAt: string
}

/** The part of a user record that shows them on posts, comments, likes, votes and follow lists. */
export type UserSummaryRecord = Pick<
  UserRecord,
  '_id' | 'username' | 'firstName' | 'lastName' | 'displayName' | 'avatarURL' | 'quotePolicy'
>

export interface CommentRecord {
  readonly _id: string
  readonly authorId: string
  readonly text: string
  readonly upvotedBy: readonly string[]
  readonly downvotedBy: readonly string[]
  readonly createdAt: string
  readonly updatedAt: string
  /**
   * The comment of the same post this one answers, at any depth (data written when threads were one level
   * deep names the root there, which reads as a reply to the root); absent on a comment answering the post.
   */
  readonly replyTo?: string
}

/** A poll on a post (DECISIONS §10): its options, when it closes, and the votes cast for each option. */
export interface PollRecord {
  readonly options: readonly string[]
  readonly closesAt: string
  /** Votes per option, in the options' order, counting every voter (suspended ones too: views leave those out). */
  readonly counts: readonly number[]
  /** Set once, by whichever instance first noticed the poll closed and told its author. */
  readonly closeNoticed?: true
  /**
   * Who voted for what, kept on the record by the embedded store; PostgreSQL keeps votes in a table of
   * its own and leaves this out: read them with pollVotesOf.
   */
  readonly voters?: readonly PollVote[]
}

export interface PollVote {
  readonly postId: string
  readonly userId: string
  readonly choice: number
}

/** One image of a post: its URL, its author's description and its pixel size, when known. */
export interface MediaRecord {
  readonly url: string
  readonly alt?: string
  readonly width?: number
  readonly height?: number
}

export interface PostRecord {
  readonly _id: string
  readonly authorId: string
  readonly content: string
  readonly mediaUrl: string
  readonly type: string
  /** The image's description, written by the author; absent without an image. */
  readonly mediaAlt?: string
  /** The stored image's pixel size, when known (an uploaded file); absent for https URLs. */
  readonly mediaWidth?: number
  readonly mediaHeight?: number
  /** The post's images after the first, in order (at most 3); absent when it has one image or none. */
  readonly moreMedia?: readonly MediaRecord[]
  readonly createdAt: string
  readonly updatedAt: string
  /** When its author last edited it; absent on a post never edited (a like changes `updatedAt` only). */
  readonly editedAt?: string
  /** When it was brought in from an archive of its author's (its `createdAt` is the original's); absent otherwise. */
  readonly importedAt?: string
  /** The preview of the post's first https link, once fetched; absent until then, or when there is none. */
  readonly card?: LinkCardRecord
  /** The content warning a reader sees before the text and image; absent when none. */
  readonly spoilerText?: string
  readonly poll?: PollRecord
  /**
   * Who likes the post, and who took a like back, in the order they did, and its comments, oldest first.
   * A store may hold only the most recent SHOWN_OF_A_POST of each here, all a view shows (PostgreSQL
   * reads no more); the counts below count them all, and the paged reads list them all.
   */
  readonly likedBy: readonly string[]
  readonly dislikedBy: readonly string[]
  readonly comments: readonly CommentRecord[]
  readonly likeCount: number
  readonly commentCount: number
  /** How many people repost it; absent: none (posts written before reposts existed). */
  readonly repostCount?: number
  /**
   * Who reposts it and when, oldest first: kept on the record by the embedded store; PostgreSQL keeps
   * them in a table of its own and leaves this out.
   */
  readonly reposts?: readonly RepostRecord[]
  /** The post it quotes, by id; it may have been deleted since. */
  readonly quoteOf?: string
  /** When its author pinned it to their profile; absent when not pinned. */
  readonly pinnedAt?: string
  /** Who may read it (DECISIONS §12), chosen when it was written and never changed; absent: `public`. */
  readonly visibility?: Visibility
  /**
   * The people it mentioned when it was written, by id: a `followers` post reaches them besides the
   * author's followers, a `direct` one reaches only them. Absent: nobody (posts written before audiences).
   * A direct post's are its recipients: those it mentioned, or the people of the conversation it answers,
   * but for anyone across a block from its author.
   */
  readonly addressed?: readonly string[]
  /** On a direct post: the conversation it belongs to (ConversationMembership's `_id`); absent on every other post. */
  readonly conversationId?: string
  /** On a direct post that answers another one: that post's id (it may have been deleted since). */
  readonly inReplyTo?: string
  /** A post of a person of another server (DECISIONS §14): where its note is; absent for this server's posts. */
  readonly remote?: RemotePostRecord
  /**
   * How it read before each edit, oldest first (DECISIONS §15): kept on the record by the embedded store
   * (absent: never edited); PostgreSQL keeps them in a table of its own and leaves this out.
   */
  readonly versions?: readonly PostVersionRecord[]
}

/** Where a remote post's note is, and what its server sent. */
export interface RemotePostRecord {
  /** The note's id (a URL): what its Update, Delete, likes and replies name. */
  readonly noteId: string
  /** Its page on its server. */
  readonly url: string
  /** Its content as its server wrote it, sanitized to links, paragraphs, line breaks and spans. */
  readonly html: string
}

/** A link's preview: `url` is the link as the post writes it; `image` is a /media/ path of this server, or ''. */
export interface LinkCardRecord {
  readonly url: string
  readonly title: string
  readonly description: string
  readonly image: string
}

/** One person's repost of a post. */
export interface RepostRecord {
  readonly userId: string
  readonly at: string
}

/** A post a home feed shows because someone the reader follows (or the reader) reposted it. */
export interface FeedRepost {
  readonly post: PostRecord
  /** The reposter. */
  readonly by: string
  readonly at: string
}

/** What a home feed's reposts are read by: the time orders only, with a cursor of the time kind. */
export interface FeedRepostQuery extends PageRequest {
  sort: 'latest' | 'oldest'
}

/** At most this many posts are pinned to a profile. */
export const MAX_PINNED = 3

/** What a write learns of the post it locks: all but its lists, whose counts are fresh once the lock is held. */
export type LockedPost = Omit<PostRecord, 'likedBy' | 'dislikedBy' | 'comments' | 'reposts' | 'versions'>

/** One like (liked true) or unlike of a batch (StoreTx.setReactions). */
export interface ReactionChange {
  postId: string
  userId: string
  liked: boolean
}

/** How many likers, dislikers and comments a post's view shows, the most recent (docs/api-contract.md §5). */
export const SHOWN_OF_A_POST = 20

export interface TagCount {
  tag: string
  /** How many posts carry it. */
  posts: number
}

export interface UserSearch {
  /**
   * Folded words (namePrefixesOf): each must begin a word of the user's username, first or last name;
   * none begins another, and the longest come first.
   */
  prefixes: readonly string[]
  /** Instead: the one lower-case prefix the username itself must begin with (a search for `@name`). */
  username?: string
}

export interface Database {
  version: 1
  users: UserRecord[]
  posts: PostRecord[]
  /** Absent in databases written before notifications existed. */
  notifications?: NotificationRecord[]
  /** Absent in databases written before tokens could be logged out one by one. */
  revokedTokens?: RevokedTokenRecord[]
  /** The next three are absent in databases written before moderation. */
  reports?: ReportRecord[]
  auditLog?: AuditEntryRecord[]
  invites?: InviteRecord[]
  /** Absent in databases written before accounts could be deleted. */
  reservedNames?: ReservedNameRecord[]
  /** Absent in databases written before the job queue: their unnoticed polls then get their jobs at load. */
  jobs?: JobRecord[]
  /** The next three are absent in databases written before the Mastodon client API. */
  apps?: AppRecord[]
  authorizationCodes?: AuthorizationCodeRecord[]
  markers?: MarkerRecord[]
  /** Absent in databases written before Web Push. */
  pushSubscriptions?: PushSubscriptionRecord[]
  /** Absent in databases written before custom emoji. */
  customEmojis?: CustomEmojiRecord[]
}

/**
 * The username of a deleted account, held until `until` so nobody takes it over at once; while it is
 * kept, the account's old tokens are told apart from a stranger's (a 401, not a 404).
 */
export interface ReservedNameRecord {
  /** The username's usernameKey (server/usernames.ts). */
  readonly _id: string
  /** The deleted account's id. */
  readonly userId: string
  readonly until: string
}

/** A comment and the post it is on. */
export interface AuthoredComment {
  readonly postId: string
  readonly comment: CommentRecord
}

/** What the deletion of an account changed for everyone else, for the events that tell them. */
export interface AccountRemoval {
  /** The account's posts, all gone, in no particular order. */
  readonly postIds: readonly string[]
  /** Whoever had unread notifications that went with the account, and their count now, in no particular order. */
  readonly unread: readonly UnreadCount[]
  /** The snapshots of the open reports that went with it (made by them, or about them): evidence no longer kept. */
  readonly openReportSnapshots: readonly object[]
  /**
   * The conversations of direct posts they were in, hidden or not, each with the participants it goes on
   * between (whose accounts exist), sorted; in no particular order.
   */
  readonly conversations: readonly LeftConversation[]
}

/** A conversation a deleted account left, and who remains in it. */
export interface LeftConversation {
  readonly conversationId: string
  readonly participantIds: readonly string[]
}

export interface PageRequest {
  limit?: number
  cursor?: string
  /**
   * People whose records are left out of the page (their posts, comments, likes, notifications, or
   * themselves in a list of people), as services/visibility.ts works them out for the reader; the page
   * is still full, and its cursor continues after what was skipped.
   */
  hide?: readonly string[]
}

export interface Page<T> {
  items: T[]
  /** Null at the end. */
  nextCursor: string | null
}

/**
 * Which posts a read keeps by their audience (DECISIONS §12) for the person it is read for. The rule is
 * services/audience.ts's (mayRead, isListed); both stores apply it inside the read, before a page's
 * limit, so pages stay full and cursors right (the embedded store in audience-scope.ts, PostgreSQL in
 * pg/audience-sql.ts). Following an author means an accepted follow at the moment of the read (a follow
 * request is none). Absent: every post, as the store's own walks (an export, a deletion) read them.
 * - `listed`: public posts alone: what strangers browse (Explore, trending, tag pages, search).
 * - `shown`: what a profile, its pinned posts or a home feed shows `readerId`: public and unlisted posts,
 *   and the `followers` posts whose author is or is followed by `readerId`, or that addressed them; never
 *   a `direct` post, which lives in conversations. Without a reader (nobody signed in, a public page's
 *   list): public posts alone.
 * - `readable`: every post `readerId` may read now (mayRead): the likes and bookmarks lists. Without a
 *   reader: public and unlisted posts.
 */
export type AudienceScope =
  { readonly kind: 'listed' } | { readonly kind: 'shown' | 'readable'; readonly readerId: string | undefined }

/** A page of posts, kept to an audience. */
export interface PostPage extends PageRequest {
  audience?: AudienceScope
}

export interface PostQuery extends PostPage {
  /** Only posts by these authors; all posts when absent. */
  authorIds?: readonly string[]
  /** Instead: the home feed of this user, their own posts and those of everyone they follow. */
  feedOf?: string
  sort: FeedSort
  /** Only posts with an image. */
  media?: boolean
  /**
   * People whose likes count nowhere (suspended ones, DECISIONS §11): a `trending` page orders posts by
   * their likes without these people's.
   */
  uncounted?: readonly string[]
}

/**
 * The reads both stores answer alike, PostgreSQL's answers being the rule; the contract suite
 * (test/server/store-contract.test.ts) holds each store to every rule written here. Throughout: an id no
 * record has, a malformed one included (PostgreSQL's ids are uuids), finds nothing and is never an error;
 * a pending signup is a user like any other here (services hide it), but for the lists of people
 * (listUsers, suggestUsers, searchUsers), which leave it out so that their pages are full; and every
 * paged read refuses a cursor it could not have made with a 400 that names the cursor, on either store.
 */
export interface StoreReader extends ClientAppReads, FilterListReads, PostPlanReads {
  /** The whole record, its follows and bookmarks included; undefined for an unknown id. */
  getUser(id: string): Promise<UserRecord | undefined>
  /** What a request's token is checked against: far cheaper than the whole record with its follows. */
  getTokenHolder(id: string): Promise<TokenHolder | undefined>
  /** The user without their lists (AccountRecord): far cheaper than getUser for someone followed by thousands. */
  getAccount(id: string): Promise<AccountRecord | undefined>
  /** Compared by usernameKey (server/usernames.ts), as usernames are unique by it. */
  getUserByUsername(username: string): Promise<UserRecord | undefined>
  /** In the order asked, an id asked twice answered twice; unknown ids are skipped. */
  getUsers(ids: readonly string[]): Promise<UserRecord[]>
  /**
   * Only what shows a person beside what they did (the five fields of UserSummaryRecord, nothing more), in
   * the order asked, unknown ids skipped: far cheaper than whole records where a user follows or is followed
   * by thousands.
   */
  getUserSummaries(ids: readonly string[]): Promise<UserSummaryRecord[]>
  /** Oldest account first, without the people `page.hide` names and signups waiting for approval. */
  listUsers(page: PageRequest): Promise<Page<UserRecord>>
  /**
   * Who to follow: neither the user nor anyone they follow or `hide` holds, nor a signup waiting for
   * approval; the most followed first, then the oldest account. For an unknown user, everyone but `hide`.
   * The follows of the `uncounted` people (suspended ones, DECISIONS §11) count for nobody's place.
   */
  suggestUsers(
    userId: string,
    limit: number,
    hide?: readonly string[],
    uncounted?: readonly string[],
  ): Promise<UserRecord[]>
  /** The post with its lists (see PostRecord); undefined for an unknown id. */
  getPost(id: string): Promise<PostRecord | undefined>
  /** In the order asked, repeats kept, unknown ids skipped. */
  getPosts(ids: readonly string[]): Promise<PostRecord[]>
  /** Which of these posts the user likes; none for an unknown user, and unknown posts are left out. */
  likedAmong(userId: string, postIds: readonly string[]): Promise<Set<string>>
  /** How many likes of each of these posts are by these people, by post id; posts without one are left out. */
  countLikesBy(postIds: readonly string[], userIds: readonly string[]): Promise<Map<string, number>>
  /** Which of these posts the user reposts. */
  repostedAmong(userId: string, postIds: readonly string[]): Promise<Set<string>>
  /** Which of these people the user follows (an accepted follow; a request is none); none for an unknown user. */
  followedAmong(userId: string, otherIds: readonly string[]): Promise<Set<string>>
  /** A home feed's authors: the user first, then whom they follow in their `following` order; none for an unknown user. */
  feedAuthors(userId: string): Promise<string[]>
  /**
   * The reposts a user's home feed shows: each post reposted by the user or someone they follow, by none of
   * `hide` and not written by any of them (those are in the feed as themselves), once, at its first such
   * repost; ordered by that time and the post's id, newest first (or oldest), with a cursor of CURSOR.byTime.
   * Only a post anyone may read (public or unlisted) travels as a repost: one of any other audience is never
   * listed, whoever reposted it (DECISIONS §12).
   */
  listFeedReposts(userId: string, query: FeedRepostQuery): Promise<Page<FeedRepost>>
  /** The user's pinned posts that `audience` keeps (all without it), the most recently pinned first. */
  listPinned(userId: string, audience?: AudienceScope): Promise<PostRecord[]>
  /** The ids of who likes the post, the most recent like first; an unknown post has none. */
  listLikers(postId: string, page: PageRequest): Promise<Page<string>>
  /**
   * The ids of who reposts the post, the most recent repost first (CURSOR.byTime: the repost's time and
   * the reposter's id); `hide` left out. An unknown post has none.
   */
  listReposters(postId: string, page: PageRequest): Promise<Page<string>>
  /** The comment, only when it belongs to that post. */
  getComment(postId: string, commentId: string): Promise<CommentRecord | undefined>
  /** The replies to a comment of the post, oldest first. */
  listReplies(postId: string, commentId: string): Promise<CommentRecord[]>
  /** The votes these users cast in the polls of these posts. */
  pollVotesOf(postIds: readonly string[], userIds: readonly string[]): Promise<PollVote[]>
  /** The post's comments, oldest first; an unknown post has none. */
  listComments(postId: string, page: PageRequest): Promise<Page<CommentRecord>>
  /**
   * The posts the query names in its sort: latest and oldest by creation, trending by likes and then the
   * newest, ties broken by id; the home feed of an unknown user is empty, and an unknown author has no posts.
   */
  listPosts(query: PostQuery): Promise<Page<PostRecord>>
  /** The user's bookmarked posts that `page.audience` keeps, newest bookmark first; an unknown user has none. */
  listBookmarks(userId: string, page: PostPage): Promise<Page<PostRecord>>
  /** The posts the user likes that `page.audience` keeps, newest like first. */
  listLikedPosts(userId: string, page: PostPage): Promise<Page<PostRecord>>
  /**
   * How many posts the user has written that `audience` keeps: without it all of them, counted by an
   * index rather than read; with it, a walk of the author's posts.
   */
  countPosts(authorId: string, audience?: AudienceScope): Promise<number>
  /** Posts carrying the tag (lower case, as text-terms.ts makes it) that `page.audience` keeps, newest first. */
  listTaggedPosts(tag: string, page: PostPage): Promise<Page<PostRecord>>
  /**
   * The tags of the public posts (isListed: trends are where strangers browse) created at or after `since`,
   * by how many such posts carry each, most first, then by tag.
   */
  trendingTags(since: string, limit: number, hide?: readonly string[]): Promise<TagCount[]>
  /** Posts whose search terms (text-terms.ts) include every one of `terms` that `page.audience` keeps, newest first. */
  searchPosts(terms: readonly string[], page: PostPage): Promise<Page<PostRecord>>
  /** Users matching, in order of their lower-case username; never a signup waiting for approval. */
  searchUsers(search: UserSearch, page: PageRequest): Promise<Page<UserRecord>>
  getNotification(id: string): Promise<NotificationRecord | undefined>
  /**
   * The user's notifications, newest first; an unknown user has none. One about a post is listed only while
   * the user may read that post (the `readable` AudienceScope): one about a `followers` post of someone
   * they no longer follow, or of a post that never addressed them, is left out.
   */
  listNotifications(userId: string, page: PageRequest): Promise<Page<NotificationRecord>>
  /**
   * How many of the user's notifications listNotifications shows are unread; 0 for an unknown user. The
   * counts the writes answer (addNotification, markNotificationsRead…) count every unread one.
   */
  countUnread(userId: string): Promise<number>
  /** The unread ones countUnread counts, newest first; none for an unknown user. */
  listUnreadNotifications(userId: string): Promise<NotificationRecord[]>
  /** Whether the token of this id was logged out. */
  isTokenRevoked(tokenId: string): Promise<boolean>
  getReport(id: string): Promise<ReportRecord | undefined>
  /** Newest first. */
  listReports(status: ReportStatus, page: PageRequest): Promise<Page<ReportRecord>>
  countOpenReports(): Promise<number>
  /** How many reports the user made at or after `since`; 0 for an unknown user. */
  countReportsSince(reporterId: string, since: string): Promise<number>
  /** Newest first. */
  listAuditLog(page: PageRequest): Promise<Page<AuditEntryRecord>>
  /** Newest first. */
  listInvites(page: PageRequest): Promise<Page<InviteRecord>>
  /** Signups waiting for approval, oldest first. */
  listPendingUsers(page: PageRequest): Promise<Page<UserRecord>>
  /** The ids of every moderator and admin, who get the live events of the moderation queue. */
  listStaffIds(): Promise<string[]>
  /** Everyone whose suspension is in force at `at`, and when it ends (null: when lifted). */
  listSuspended(at: string): Promise<{ userId: string; until: string | null }[]>
  /**
   * Whom the user blocks, who blocks them, and whom they mute with the mute running at `at` (a mute past
   * its end is in none of these reads); all empty for an unknown user.
   */
  relationsOf(userId: string, at: string): Promise<Relations>
  /** Where `viewerId` stands with `otherId` at `at`; all false when either is unknown. */
  relationBetween(viewerId: string, otherId: string, at: string): Promise<Relation>
  /** The ids of whom the user blocks, the most recent block first. */
  listBlocks(userId: string, page: PageRequest): Promise<Page<string>>
  /** The user's mutes running at `at`, the most recent first. */
  listMutes(userId: string, at: string, page: PageRequest): Promise<Page<MuteRecord>>
  /**
   * The ids of who asks to follow the user and waits for their answer, the oldest request first, without
   * the people `page.hide` names; an unknown user has none.
   */
  listFollowRequests(userId: string, page: PageRequest): Promise<Page<string>>
  /** Which of these users the follower asked to follow and waits for; none for an unknown follower. */
  requestedAmong(followerId: string, userIds: readonly string[]): Promise<Set<string>>
  /** The ids of the accounts of an email address, compared without regard to case, the oldest first. */
  usersWithEmail(email: string): Promise<string[]>
  /** The user's two-factor state; undefined when it was never set up (or was turned off). */
  getTwoFactor(userId: string): Promise<TwoFactorRecord | undefined>
  /** The person's federation key pairs; undefined until they are made, or for an unknown user. */
  getActorKeys(userId: string): Promise<ActorKeysRecord | undefined>
  /** The remote person whose actor has this id; undefined when nobody here knows it. */
  getUserByActor(actorId: string): Promise<UserRecord | undefined>
  /** The remote post whose note has this id; undefined when nobody here keeps it. */
  getPostByNote(noteId: string): Promise<PostRecord | undefined>
  /** Whether the username (compared by usernameKey) is a deleted account's, held past `at`. */
  isUsernameReserved(username: string, at: string): Promise<boolean>
  /** Whether the id was an account's that was deleted and whose username is still held. */
  wasDeleted(userId: string): Promise<boolean>
  /** The user's comments, each with its post's id, oldest first (an export reads them a page at a time). */
  listCommentsBy(userId: string, page: PageRequest): Promise<Page<AuthoredComment>>
  /** The ids of the posts the user likes, the oldest like first. */
  listLikedPostIds(userId: string, page: PageRequest): Promise<Page<string>>
  /**
   * Whether anything shows the media URL, so the upload it names must stay: a post's image or its card's,
   * an avatar or a banner, or the snapshot an open report keeps of its target (the evidence a moderator reads).
   */
  isMediaUsed(url: string): Promise<boolean>
  /**
   * The conversation as its participant `userId` sees it, hidden or not; undefined unless they are in it.
   * The posts of the people `hide` names count for nothing in it (neither its last post nor unread).
   */
  getConversation(
    conversationId: string,
    userId: string,
    hide?: readonly string[],
  ): Promise<ConversationRecord | undefined>
  /**
   * The user's conversations that they have not hidden and that hold a post they may read (`lastPost` is
   * set), the most recently active first (by `activeAt`, then id), with a cursor of CURSOR.byTime;
   * `page.hide` as getConversation's `hide`.
   */
  listConversations(userId: string, page: PageRequest): Promise<Page<ConversationRecord>>
  /**
   * The posts of the conversation that `userId` may read (they wrote it, or it addressed them), newest
   * first, with a cursor of CURSOR.byTime, without those of the people `page.hide` names; none unless
   * they are in it.
   */
  listConversationPosts(conversationId: string, userId: string, page: PageRequest): Promise<Page<PostRecord>>
  /** How many of the user's conversations have unread posts, counted as getConversation counts them. */
  countUnreadConversations(userId: string, hide?: readonly string[]): Promise<number>
}

/** The fields of a profile its owner may change. */
export type ProfileChanges = Partial<
  Pick<
    UserRecord,
    | 'firstName'
    | 'lastName'
    | 'displayName'
    | 'avatarURL'
    | 'bannerURL'
    | 'bio'
    | 'website'
    | 'defaultVisibility'
    | 'altTextReminder'
  >
> & {
  /** True locks the account; false opens it again (the record then holds no `locked`). */
  locked?: boolean
  /** `anyone` leaves the record without a `quotePolicy`. */
  quotePolicy?: QuotePolicy
}

/**
 * The fields of a post its author may change; `card`, named as undefined, is cleared (an edit to another
 * link), and left out, kept.
 */
export type PostChanges = Pick<
  PostRecord,
  | 'content'
  | 'mediaUrl'
  | 'type'
  | 'mediaAlt'
  | 'mediaWidth'
  | 'mediaHeight'
  | 'moreMedia'
  | 'card'
  | 'spoilerText'
  | 'remote'
>

/**
 * The writes, each one atomic step that checks and changes together, so no service reads a record,
 * changes it and puts it back (which loses updates as soon as two writers share a database). Reads
 * inside a transaction see its own writes. Operations that may find nothing to do say so by returning
 * false, and the service turns that into the matching refusal. As with the reads, an unknown or malformed
 * id is nothing to do, never an error, and PostgreSQL's answers are the rule the contract suite holds the
 * embedded store to: a write never names someone, or something, that does not exist.
 */
export interface StoreTx extends StoreReader, ClientAppWrites, FilterListWrites, PostPlanWrites {
  /**
   * The post without its lists of likes and comments (a write checks and changes those in the statements
   * that change them), held against other writers until the transaction ends; undefined when there is none.
   */
  lockPost(id: string): Promise<LockedPost | undefined>
  /**
   * lockPost for several posts in one step, taken in the order of their ids, so two transactions locking
   * overlapping sets wait for each other rather than deadlock: those that exist, in that order.
   */
  lockPosts(ids: readonly string[]): Promise<LockedPost[]>
  /** relationBetween for each pair of viewer and other, in one step: the relations in the pairs' order. */
  relationsBetween(pairs: readonly (readonly [viewerId: string, otherId: string])[], at: string): Promise<Relation[]>
  /**
   * 'taken' when someone has the username already (compared by usernameKey), 'lookAlike' when someone's
   * has its confusable skeleton (usernameSkeleton); the user is created only when neither.
   */
  createUser(user: UserRecord): Promise<'created' | 'taken' | 'lookAlike'>
  /** Only the fields `changes` holds, and `updatedAt`: the changed record, or undefined when there is no such user. */
  updateProfile(id: string, changes: ProfileChanges, at: string): Promise<UserRecord | undefined>
  /** The kinds of notification the user is mailed about (none: the record holds no `mailAlerts`). */
  setMailAlerts(id: string, kinds: readonly MailKind[]): Promise<void>
  /** Notes that the user was mailed about every notification made up to `at`. */
  setMailedThrough(id: string, at: string): Promise<void>
  /** Raises the user's token version, so every token issued before it stops working; nothing for an unknown user. */
  revokeTokens(id: string): Promise<void>
  /**
   * Replaces the password and raises the token version, so every token issued before it stops working;
   * only while the hash is still `expected`, so of two changes (or two uses of one reset link) made on
   * one password only the first wins. The holder as it now is, or undefined when the hash had changed.
   */
  setPassword(id: string, expected: string, passwordHash: string, at: string): Promise<TokenHolder | undefined>
  /**
   * Starts a setup with a new secret, replacing a setup not yet enabled; false when two-factor sign-in is
   * on already or there is no such user.
   */
  beginTwoFactor(id: string, secret: string): Promise<boolean>
  /**
   * Turns two-factor sign-in on with the recovery codes' hashes, the step of the code that proved it
   * becoming the last used; false unless a setup with this secret is waiting.
   */
  enableTwoFactor(id: string, secret: string, step: number, recoveryCodes: readonly string[]): Promise<boolean>
  /**
   * Spends a proof: a step later than the last one used, or a recovery code not used yet; false when
   * two-factor sign-in is off or the proof was spent already, so each is accepted once however many
   * instances are asked at the same moment.
   */
  useTwoFactor(id: string, proof: TwoFactorProof): Promise<boolean>
  /** Turns two-factor sign-in off and forgets its secret and codes; nothing when it was off. */
  disableTwoFactor(id: string): Promise<void>
  /**
   * Keeps the person's federation key pairs unless they have some already (or the user is unknown); the
   * pairs kept either way, so of two instances making them at once both use the first.
   */
  addActorKeys(id: string, keys: ActorKeysRecord): Promise<ActorKeysRecord | undefined>
  /**
   * Keeps a remote person (one with `remote`): made when their id is new, otherwise their profile (username,
   * names, bio, images, `locked`, `remote`, `updatedAt`) replaced, their follows and everything else kept.
   * Usernames of remote people are never held to look-alike rules: each is unique by its host.
   */
  saveRemoteUser(user: UserRecord): Promise<void>
  /**
   * Refuses one token from now until it expires (again: no change); revocations already past their expiry
   * may be forgotten.
   */
  revokeToken(token: RevokedTokenRecord, at: string): Promise<void>
  /**
   * Adds the follow at the end of the follower's `following` and the followee's `followers`, and sets both
   * users' `updatedAt`; false, changing nothing, when the follow exists already, when either user does not
   * exist, or when both are one user (nobody follows themselves).
   */
  follow(followerId: string, followeeId: string, at: string): Promise<boolean>
  /** Ends the follow, setting both users' `updatedAt`; false, changing nothing, when there was no such follow. */
  unfollow(followerId: string, followeeId: string, at: string): Promise<boolean>
  /**
   * The follower asks to follow the followee (DECISIONS §12), the followee's newest request; no follow is
   * made and neither user changes. False, changing nothing, when the request or the follow exists already,
   * either user does not exist, or both are one user. Whether the followee is locked is the service's to check.
   */
  addFollowRequest(followerId: string, followeeId: string, at: string): Promise<boolean>
  /** Withdraws or refuses the request, making no follow; false when there was no such request. */
  removeFollowRequest(followerId: string, followeeId: string): Promise<boolean>
  /**
   * The request becomes a follow, as `follow` makes one (at the end of both lists, the count and both
   * users' `updatedAt` with it, unless the follow existed already); false, changing nothing, when there
   * was no such request.
   */
  acceptFollowRequest(followerId: string, followeeId: string, at: string): Promise<boolean>
  /**
   * Every request to the followee becomes a follow, as acceptFollowRequest makes each, the oldest first:
   * the followers, in that order (none for an unknown user).
   */
  acceptFollowRequests(followeeId: string, at: string): Promise<string[]>
  /**
   * The blocker blocks the blocked, and the follows between the two, both ways, end (the counts with
   * them), as do the follow requests between them: the follows that ended, as [follower, followee],
   * blocker's first; undefined when the block existed already, either user does not, or both are one user.
   */
  block(blockerId: string, blockedId: string, at: string): Promise<[string, string][] | undefined>
  /** False when there was no such block. */
  unblock(blockerId: string, blockedId: string): Promise<boolean>
  /**
   * Starts the mute, or replaces the running one's end and makes it the most recent; false when either user
   * does not exist or both are one user.
   */
  mute(muterId: string, mute: MuteRecord, at: string): Promise<boolean>
  /** False when there was no such mute. */
  unmute(muterId: string, mutedId: string): Promise<boolean>
  /**
   * Adds the bookmark as the user's newest and sets their `updatedAt`; false, changing nothing, when it
   * exists already or when the user or the post does not exist.
   */
  addBookmark(userId: string, postId: string, at: string): Promise<boolean>
  /** False, changing nothing, when there was no such bookmark. */
  removeBookmark(userId: string, postId: string, at: string): Promise<boolean>
  /**
   * Adds the post with only the likes, dislikes, comments and votes of people who exist, each person once
   * in each (a like wins over a dislike, an upvote over a downvote), and the counts of what it kept.
   */
  insertPost(post: PostRecord): Promise<void>
  /**
   * Sets the fields `changes` holds and `updatedAt` and `editedAt`; an optional field present but undefined
   * is cleared, one absent is kept. Nothing for an unknown post.
   */
  updatePost(id: string, changes: PostChanges, at: string): Promise<void>
  /** Sets the post's link card, leaving everything else (`updatedAt` too) as it is. */
  setPostCard(id: string, card: LinkCardRecord): Promise<void>
  /**
   * Removes the post with its comments, reactions and every bookmark of it; a direct post is no longer
   * unread for anyone.
   */
  deletePost(id: string): Promise<void>
  /** Reposts (true) or takes the repost back (false); false when the user's repost was already in that state. */
  setRepost(postId: string, userId: string, reposted: boolean, at: string): Promise<boolean>
  /** Pins the post at `at`, or unpins it with null. */
  setPinned(postId: string, at: string | null): Promise<void>
  /**
   * Likes (true): the user joins the end of `likedBy` and leaves `dislikedBy`, `likeCount` rises; or unlikes
   * (false): the reverse, joining `dislikedBy`. Sets the post's `updatedAt`. False, changing nothing, when the
   * user's like was already in that state (an unlike of a post never liked included), or the post or the
   * user does not exist.
   */
  setReaction(postId: string, userId: string, liked: boolean, at: string): Promise<boolean>
  /**
   * setReaction for each change, in one step: whether each changed, in order. Each post appears at most
   * once among the changes.
   */
  setReactions(changes: readonly ReactionChange[], at: string): Promise<boolean[]>
  /**
   * Adds the comment as the post's newest and raises `commentCount`; votes of people who do not exist are
   * left out. Nothing when the post or the comment's author does not exist.
   */
  addComment(postId: string, comment: CommentRecord): Promise<void>
  /** Sets the text and `updatedAt`; nothing unless the comment is the post's. */
  updateComment(postId: string, commentId: string, text: string, at: string): Promise<void>
  /** Removes the comment and lowers `commentCount`; nothing unless the comment is the post's. */
  deleteComment(postId: string, commentId: string): Promise<void>
  /**
   * The id of the conversation between exactly these people (an id given twice counts once), opened under
   * `newId` (a uuid) when there is none yet, every one of them its participant, active at `at`; one set of
   * people has one conversation, however many open it at once. The set is kept as it was opened: a
   * participant whose account is deleted leaves the conversation but not its set, so a later post between
   * the others opens another. Undefined, opening nothing, when any of them does not exist.
   */
  openConversation(participantIds: readonly string[], newId: string, at: string): Promise<string | undefined>
  /**
   * Files a direct post (inserted already, naming this conversation) into it: active again at `at` and shown
   * again (no longer hidden) for its author and each recipient, and unread for each recipient. Recipients
   * who are not participants are skipped. False, changing nothing, when the author is not a participant or
   * the post does not exist.
   */
  deliverDirectPost(
    conversationId: string,
    postId: string,
    authorId: string,
    recipientIds: readonly string[],
    at: string,
  ): Promise<boolean>
  /** Marks every post of the conversation read for the user; false when they are not in it. */
  markConversationRead(conversationId: string, userId: string): Promise<boolean>
  /**
   * Hides the conversation from the user's list, and marks its posts read for them, until the next post
   * that reaches them in it; false when they are not in it.
   */
  hideConversation(conversationId: string, userId: string): Promise<boolean>
  /** Counts the user's vote in the post's poll; false when they voted already (or there is no poll). */
  addPollVote(vote: PollVote): Promise<boolean>
  /**
   * Takes back every poll vote of the user, and the counts with them (for an account that is deleted);
   * answers the posts whose counts changed.
   */
  removePollVotes(userId: string): Promise<string[]>
  /**
   * Marks the post's poll as noticed closed, if it closed at or before `at` and nobody noticed yet: true
   * only for the one transaction that did, however many instances ask at once.
   */
  notePollClosed(postId: string, at: string): Promise<boolean>
  /**
   * Upvotes (true) or downvotes (false), moving the user to the end of the list they join and setting the
   * comment's `updatedAt`; false, changing nothing, when the user's vote was already that, the user does
   * not exist, or the comment is not the post's.
   */
  setVote(postId: string, commentId: string, userId: string, up: boolean, at: string): Promise<boolean>
  /**
   * The unread count of its recipient after adding it; undefined when that notification exists already
   * (see NotificationIdentity) or the people, post or comment it names do not.
   */
  addNotification(notification: NotificationRecord): Promise<number | undefined>
  /**
   * Removes the matching notifications; answers the recipients whose unread count fell, with the new count
   * (none when only read notifications went).
   */
  removeNotifications(match: NotificationMatch): Promise<UnreadCount[]>
  /**
   * addNotification for each, in one step: for each one added, its recipient's unread count once all are;
   * undefined for each not added.
   */
  addNotifications(notifications: readonly NotificationRecord[]): Promise<(number | undefined)[]>
  /** removeNotifications of each identity, in one step: each recipient who had one unread, with the count after. */
  removeNotificationsOf(identities: readonly NotificationIdentity[]): Promise<UnreadCount[]>
  /**
   * Marks read the user's unread notifications up to and including `through` in their order (all without
   * it): how many changed, and the unread count after.
   */
  markNotificationsRead(
    userId: string,
    through: NotificationRecord | undefined,
  ): Promise<{ marked: number; unread: number }>
  /** The changed record, or undefined when there is no such user. */
  setRole(id: string, role: Role, at: string): Promise<UserRecord | undefined>
  /** Suspends (or, with null, lifts the suspension of) the user: the changed record, or undefined when none. */
  setSuspension(id: string, suspension: Suspension | null, at: string): Promise<UserRecord | undefined>
  /** False when the user is not pending (or does not exist). */
  approveUser(id: string, at: string): Promise<boolean>
  /** Deletes a pending signup, which has made nothing yet; false when the user is not pending. */
  deletePendingUser(id: string): Promise<boolean>
  /**
   * Deletes the user and everything they own, in this one transaction: their posts (with the comments,
   * likes and bookmarks others made of them), their comments, likes, votes and bookmarks, their follows
   * both ways, their follow requests both ways, the notifications to and from them, the reports they made,
   * their blocks and mutes and the blocks and mutes of them, their two-factor state, their authorization
   * codes and markers, their places in
   * conversations (which go on between the others); every count those fed drops with them. The username
   * is held by `reservation`. Undefined when there is no such user.
   */
  deleteAccount(userId: string, reservation: ReservedNameRecord, at: string): Promise<AccountRemoval | undefined>
  /** Stops the report from being made twice in the hour by a reporter racing themselves; nothing for an unknown user. */
  lockUser(id: string): Promise<void>
  /** The report as given; the service checks its reporter and target. */
  addReport(report: ReportRecord): Promise<void>
  /** The report resolved with `resolution`, or undefined when it is not open (or does not exist). */
  resolveReport(id: string, resolution: ReportResolution): Promise<ReportRecord | undefined>
  addAuditEntry(entry: AuditEntryRecord): Promise<void>
  addInvite(invite: InviteRecord): Promise<void>
  /** Counts one use of the invite; false when it is unknown, used up or expired at `at`. */
  useInvite(code: string, at: string): Promise<boolean>
  /** Records an event that is published once, and only if, the transaction commits. */
  emit(event: ChirpEvent): void
  /** Queues a job that exists once, and only if, the transaction commits (job-types.ts). */
  enqueueJob(job: NewJob, at: string): Promise<void>
  /**
   * Marks the job done in the transaction of its effect, so the effect and the job's end commit together;
   * false, changing nothing, unless the job is still running under this claim (its lease ran out and
   * another run took it over): the caller then gives up its effect by failing the transaction.
   */
  completeJob(id: string, claim: string, at: string): Promise<boolean>
}

/** What /api/health reports; the embedded store keeps its first name there, which clients may read. */
type StoreKind = 'lowdb' | 'postgres'

/**
 * Persistence behind one narrow async interface. A transaction applies all of its writes or none,
 * and resolves only once they are durable; its events reach subscribers after that, in commit order.
 */
export interface Store extends StoreReader, JobStore {
  readonly kind: StoreKind
  /**
   * How many batches of likes (services/like-batches.ts) are written at once. Where each statement costs
   * a round trip and its own work (PostgreSQL), likes that arrive together share statements in a few
   * batches; the embedded store's transactions cost only their flush, which those in flight share
   * already, so there every like is a batch of its own, written as soon as it arrives (Infinity).
   */
  readonly batchesAtOnce: number
  /**
   * Fedify's keys and values: a table on PostgreSQL, shared by every instance; in memory on the embedded
   * store, whose one process is the only reader, as everything Fedify keeps there is a cache or a guard
   * that expires within days.
   */
  readonly federationKv: FederationKv
  /**
   * Short-lived keys and values that outlive a restart and that every instance shares (the Mastodon API's
   * idempotency keys and uploads' records): on PostgreSQL the same table as federationKv; on the embedded
   * store a file of the data directory.
   */
  readonly keyValues: FederationKv
  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T>
  /**
   * Calls `watcher` with what each committed write changed, before the write is acknowledged: the tags of
   * its events (store/change-tags.ts), or 'all'. The embedded store names each transaction's as it
   * commits; PostgreSQL names every write of every instance as its events arrive from the shared log.
   * What reads keep lapses by it (server/kept-reads.ts, plugins/read-cache.ts).
   */
  watchChanges(watcher: (change: StoreChange) => void): void
  /** Rejects when the database cannot be reached. */
  ping(): Promise<void>
  close(): Promise<void>
}

/** What one write changed: the tags of what reads keep (server/tagged-cache.ts), or everything ('all'). */
export type StoreChange = readonly string[] | 'all'

/** An event as a log keeps it: its id, and its data already serialised. */
export interface LoggedEvent {
  id: number
  name: string
  data: string
  to: string | undefined
  /** Whose post, comment or action it shows (ChirpEvent's `by`). */
  by?: string | undefined
  /** Whose post it carries besides (ChirpEvent's `about`). */
  about?: string | undefined
  /** Who may read the post it carries or concerns (ChirpEvent's `audience`); absent: anyone. */
  audience?: EventAudience | undefined
}

/** What a reconnecting client asks a shared event log for. */
export interface ReplayRequest {
  /** The last id the client saw. */
  after: number
  /** The newest id the instance has delivered: what comes later reaches the client live. */
  upTo: number
  userId: string
  /** The most event data a replay may carry; past it the client refetches. */
  maxBytes: number
}

/** Whose a stream ticket, and the stream it opens, is: a user, and the token that asked for it. */
export interface StreamOwner {
  userId: string
  /** The token's id; absent only for a ticket issued before tokens had ids, during an upgrade. */
  tokenId?: string
}

/**
 * Stream tickets: an EventSource cannot send an authorization header, and a token must never sit in a
 * URL, so a protected call trades the token for a short-lived, single-use ticket instead.
 */
export interface TicketStore {
  issue(owner: StreamOwner): string | Promise<string>
  /** The ticket's owner, once: a ticket is gone after its first redemption, valid or not. */
  redeem(ticket: string): StreamOwner | undefined | Promise<StreamOwner | undefined>
  /** At logout everywhere: voids every ticket of the user that has not been redeemed yet. */
  revokeUser(userId: string): void | Promise<void>
  /** At logout: voids the unredeemed tickets that one token asked for. */
  revokeToken(tokenId: string): void | Promise<void>
  /** At shutdown: forgets the tickets this process alone holds. */
  clear(): void
}

/**
 * The places users' event streams take, counted across every instance that shares them, so the cap on
 * one user's streams holds for the cluster and not once per instance.
 */
export interface StreamSlots {
  /** A slot for one more stream of the user, or undefined when `max` are taken already, on any instance. */
  claim(userId: string, max: number): Promise<string | undefined>
  /** The stream that held the slot ended. */
  release(slot: string): Promise<void>
  /** At shutdown: gives back every slot this instance holds. */
  close(): Promise<void>
}
