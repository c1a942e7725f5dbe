import type { Readable } from 'node:stream'
import { Type, type TBoolean } from '@sinclair/typebox'
import { MAIL_KINDS, PUSH_KINDS } from '../../common/notification-settings.js'
import { DateTimeSchema } from './common.js'

/** The rules of a new password, as at signup. */
const NewPasswordSchema = Type.String({ minLength: 8, maxLength: 128 })
/** A password to check: whatever the account's is, long or short. */
const CurrentPasswordSchema = Type.String({ minLength: 1, maxLength: 128 })
/** A 6-digit TOTP code or a recovery code, spaces allowed. */
const CodeSchema = Type.String({ minLength: 1, maxLength: 32 })

export const PasswordChangeSchema = Type.Object({
  currentPassword: CurrentPasswordSchema,
  newPassword: NewPasswordSchema,
})

export const TokenReplySchema = Type.Object({ encodedToken: Type.String() })

export const TwoFactorStatusSchema = Type.Object({ enabled: Type.Boolean() })

export const TwoFactorSetupReplySchema = Type.Object({
  /** Base32, for typing into an app by hand. */
  secret: Type.String(),
  /** The `otpauth://totp/...` URI a QR code is drawn from. */
  otpauthUrl: Type.String(),
})

/** Turning two-factor sign-in on asks for the password too, as Mastodon does: a token alone cannot. */
export const TwoFactorEnableSchema = Type.Object({ code: CodeSchema, password: CurrentPasswordSchema })
export const TwoFactorEnableReplySchema = Type.Object({ recoveryCodes: Type.Array(Type.String()) })
export const TwoFactorDisableSchema = Type.Object({ password: CurrentPasswordSchema, code: CodeSchema })

export const PasswordResetSchema = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }) })
export const PasswordResetConfirmSchema = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 500 }),
  newPassword: NewPasswordSchema,
})

export const AccountDeleteSchema = Type.Object({ password: CurrentPasswordSchema })

const ImportCountsSchema = Type.Object({
  posts: Type.Integer(),
  following: Type.Integer(),
  blocks: Type.Integer(),
  mutes: Type.Integer(),
  bookmarks: Type.Integer(),
})
export const ImportReplySchema = Type.Object({ imported: ImportCountsSchema, skipped: ImportCountsSchema })

/** An account's archive: a zip, sent as a stream of bytes (Fastify pipes a stream; it never serialises one). */
export const ArchiveSchema = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  contentMediaType: 'application/zip',
})

/** An app the person authorised through the Mastodon client API's sign-in, as Settings lists it. */
const AuthorisedAppSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  website: Type.Union([Type.String(), Type.Null()]),
  scopes: Type.Array(Type.String()),
  authorisedAt: DateTimeSchema,
  lastGrantedAt: DateTimeSchema,
})
export const AuthorisedAppsReplySchema = Type.Object({ apps: Type.Array(AuthorisedAppSchema) })
export const AppIdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

const toggles = <K extends string>(kinds: readonly K[]) =>
  Type.Object(Object.fromEntries(kinds.map((kind) => [kind, Type.Boolean()])) as Record<K, TBoolean>)

/** GET /api/account/notifications: which kinds of notification are mailed and pushed (DECISIONS §15). */
export const NotificationSettingsSchema = Type.Object(
  { email: toggles(MAIL_KINDS), push: toggles(PUSH_KINDS) },
  { title: 'NotificationSettings' },
)

/** PUT /api/account/notifications: the toggles to change; those left out stay as they are. */
export const NotificationSettingsEditSchema = Type.Object({
  email: Type.Optional(Type.Partial(toggles(MAIL_KINDS))),
  push: Type.Optional(Type.Partial(toggles(PUSH_KINDS))),
})

/** The token of a mail's unsubscribe link. */
export const UnsubscribeQuerySchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: 300 }) })
