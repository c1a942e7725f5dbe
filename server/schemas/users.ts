import { Type, type Static } from '@sinclair/typebox'
import { DateTimeSchema, EmojiUsesSchema, IdSchema, NextCursorSchema, UsernameSchema } from './common.js'
import { RoleSchema } from './roles.js'
import { QuotePolicySchema, VisibilitySchema } from './audience.js'
import { PostSchema } from './posts.js'
import { UserSummarySchema } from './user-summary.js'
import { LIMITS } from '../../common/limits.js'

export type { UserSummary } from './user-summary.js'

const UserSchema = Type.Object(
  {
    /** The custom emoji their name and bio show. */
    emojis: Type.Optional(EmojiUsesSchema),
    _id: Type.String(),
    username: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    /** Only on the caller's own record. */
    email: Type.Optional(Type.String()),
    /** Only on the caller's own record (DECISIONS §8). */
    role: Type.Optional(RoleSchema),
    /** The name the user chose to show above their username; empty: their first and last name show. */
    displayName: Type.String(),
    avatarURL: Type.String(),
    /** The wide image at the top of the profile; empty when none. */
    bannerURL: Type.String(),
    bio: Type.String(),
    website: Type.String(),
    /** `website` and `avatarURL` again, by the names clients of the original mock read back (docs/api-contract.md §2). */
    portfolio: Type.String(),
    avatar: Type.String(),
    /** Only for a person of another server (DECISIONS §14), whose username is `name@host`. */
    remote: Type.Optional(Type.Literal(true)),
    /** A remote person's page on their own server. */
    url: Type.Optional(Type.String()),
    /** Only in the answer to a profile edit that carried a `token`: that token, given back and never stored. */
    token: Type.Optional(Type.String()),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
    /**
     * The bookmarked posts as full current posts, newest bookmark first, as the original mock sent them;
     * bookmarks are private, so other users' records carry an empty list.
     */
    bookmarks: Type.Array(PostSchema),
    following: Type.Array(UserSummarySchema),
    followers: Type.Array(UserSummarySchema),
    /** Whether following them takes their approval (a follow request, DECISIONS §12). */
    locked: Type.Boolean(),
    /** Only to a signed-in caller whose request to follow them waits for their answer. */
    requested: Type.Optional(Type.Literal(true)),
    /** Only on the caller's own record: the audience their posts get when they choose none. */
    defaultVisibility: Type.Optional(VisibilitySchema),
    /** Who may quote the user's posts (DECISIONS §15). */
    quotePolicy: Type.Optional(QuotePolicySchema),
    /** Only on the caller's own record: whether the composer asks before posting an image without a description. */
    altTextReminder: Type.Optional(Type.Boolean()),
    /** How many posts the user has; on one person's record, not in lists of people. */
    postCount: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { title: 'User' },
)
export type User = Static<typeof UserSchema>

const NameSchema = Type.String({ minLength: 1, maxLength: LIMITS.name })
const PasswordSchema = Type.String({ minLength: 8, maxLength: 128 })
const BioSchema = Type.String({ maxLength: LIMITS.bio })
/** Empty, or an absolute http(s) URL; the service checks the URL itself. */
const WebsiteSchema = Type.String({ maxLength: LIMITS.website })
/** A preset avatar path, an uploaded /media/ path or an https URL; the service checks which. */
const AvatarUrlSchema = Type.String({ minLength: 1, maxLength: 500 })

/** Without both names, the account is called by its username (docs/api-contract.md §4). */
export const SignupBodySchema = Type.Object({
  username: UsernameSchema,
  password: PasswordSchema,
  firstName: Type.Optional(NameSchema),
  lastName: Type.Optional(NameSchema),
  email: Type.String({ format: 'email', maxLength: 254 }),
  avatarURL: Type.Optional(AvatarUrlSchema),
  /** A code from POST /api/invites; needed with REGISTRATION=invite. */
  invite: Type.Optional(Type.String({ maxLength: 100 })),
})
export type SignupBody = Static<typeof SignupBodySchema>

export const LoginBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 30 }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
  /** With two-factor sign-in on: the authenticator's 6-digit code, or one of the recovery codes. */
  otp: Type.Optional(Type.String({ maxLength: 32 })),
})
export type LoginBody = Static<typeof LoginBodySchema>

/**
 * Body of POST /users/edit; `{ userData }` as the original client sends it, or the bare object.
 * `portfolio` is read as `website` and `avatar` as `avatarURL`; sent beside the field itself, each is
 * weighed against the stored value (docs/api-contract.md §1).
 */
export const UserEditSchema = Type.Object({
  firstName: Type.Optional(NameSchema),
  /** Empty only when it already is (an account made by a signup without names, sent back whole). */
  lastName: Type.Optional(Type.String({ maxLength: LIMITS.name })),
  /** Empty: shown by the first and last name again. */
  displayName: Type.Optional(Type.String({ maxLength: LIMITS.name })),
  bio: Type.Optional(BioSchema),
  website: Type.Optional(WebsiteSchema),
  avatarURL: Type.Optional(AvatarUrlSchema),
  /** Empty, an uploaded /media/ file or an https URL, as a post's image; the service checks which. */
  bannerURL: Type.Optional(Type.String({ maxLength: 500 })),
  /** The audience new posts get when they choose none. */
  defaultVisibility: Type.Optional(VisibilitySchema),
  /** False: the composer posts an image without a description without asking first (DECISIONS §15). */
  altTextReminder: Type.Optional(Type.Boolean()),
  /** Who may quote my posts, old and new: `anyone` (the default), `followers` or `nobody` (DECISIONS §15). */
  quotePolicy: Type.Optional(QuotePolicySchema),
  /** True: following takes the owner's approval; false again accepts every request waiting (DECISIONS §12). */
  locked: Type.Optional(Type.Boolean()),
  portfolio: Type.Optional(WebsiteSchema),
  avatar: Type.Optional(AvatarUrlSchema),
  /** Accepted by the schema only so that a change can be refused with the catalogue's message. */
  username: Type.Optional(Type.String({ maxLength: 100 })),
  /** Never stored; a string is given back in the reply's `user`, as the original mock did. */
  token: Type.Optional(Type.Unknown()),
})
export type UserEdit = Static<typeof UserEditSchema>

/** With REGISTRATION=approval a signup gets no token: `pending` says it waits for a moderator. */
export const AuthSignupReplySchema = Type.Object({
  createdUser: UserSchema,
  encodedToken: Type.Optional(Type.String()),
  pending: Type.Optional(Type.Literal(true)),
})

export const AuthLoginReplySchema = Type.Object({ foundUser: UserSchema, encodedToken: Type.String() })

export const UsernameParamsSchema = Type.Object({ username: UsernameSchema }, { additionalProperties: false })
/** A username, or a user's `_id`, as the original API looked users up. */
/**
 * A person of another server as `name@host` (a port may follow the host): found through their server's
 * WebFinger when federation is on (DECISIONS §14).
 */
const RemoteHandleSchema = Type.String({
  maxLength: 255,
  pattern: '^@?[A-Za-z0-9_.~-]+@[A-Za-z0-9.-]+(:[0-9]{1,5})?$',
})

export const UserLookupParamsSchema = Type.Object(
  { username: Type.Union([UsernameSchema, Type.String({ format: 'uuid' }), RemoteHandleSchema]) },
  { additionalProperties: false },
)

/** Someone whose posts are listed: a person here by username, or one of another server as `name@host`. */
export const PostsAuthorParamsSchema = Type.Object(
  { username: Type.Union([UsernameSchema, RemoteHandleSchema]) },
  { additionalProperties: false },
)
export const UserIdParamsSchema = Type.Object({ id: IdSchema }, { additionalProperties: false })

export const UsersReplySchema = Type.Object({ users: Type.Array(UserSchema), nextCursor: NextCursorSchema })
export const UserReplySchema = Type.Object({ user: UserSchema })
/**
 * A follow or an unfollow: `user` is the caller and `followUser` the other person. Following a locked
 * account asks instead (DECISIONS §12): `user` is then that account and `requested` true; an unfollow that
 * withdrew a request answers the same with `requested` false.
 */
export const FollowReplySchema = Type.Object({
  user: UserSchema,
  followUser: Type.Optional(UserSchema),
  requested: Type.Optional(Type.Boolean()),
})
