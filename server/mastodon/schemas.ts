import { Type, type Static } from '@sinclair/typebox'

/**
 * Mastodon's entities (docs.joinmastodon.org, Mastodon 4.3) as this API answers them: every field a
 * response carries is listed, since a response schema also decides what is sent.
 */

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

export const ApplicationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    website: Nullable(Type.String()),
    scopes: Type.Array(Type.String()),
    redirect_uri: Type.String(),
    redirect_uris: Type.Array(Type.String()),
    /** Only when the app is registered. */
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
    client_secret_expires_at: Type.Optional(Type.Integer()),
    /** The server's VAPID public key, for the app's Web Push subscriptions. */
    vapid_key: Type.Optional(Type.String()),
  },
  { title: 'MastodonApplication' },
)

export const TokenSchema = Type.Object(
  { access_token: Type.String(), token_type: Type.Literal('Bearer'), scope: Type.String(), created_at: Type.Integer() },
  { title: 'MastodonToken' },
)

export const CustomEmojiSchema = Type.Object(
  {
    shortcode: Type.String(),
    url: Type.String(),
    static_url: Type.String(),
    visible_in_picker: Type.Boolean(),
    category: Nullable(Type.String()),
  },
  { title: 'MastodonCustomEmoji' },
)

const FieldSchema = Type.Object({ name: Type.String(), value: Type.String(), verified_at: Nullable(Type.String()) })

const RoleSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  color: Type.String(),
  permissions: Type.String(),
  highlighted: Type.Boolean(),
})

const SourceSchema = Type.Object({
  note: Type.String(),
  fields: Type.Array(FieldSchema),
  privacy: Type.String(),
  sensitive: Type.Boolean(),
  language: Type.String(),
  follow_requests_count: Type.Integer(),
  hide_collections: Type.Boolean(),
  discoverable: Type.Boolean(),
  indexable: Type.Boolean(),
  attribution_domains: Type.Array(Type.String()),
})

const accountFields = {
  id: Type.String(),
  username: Type.String(),
  acct: Type.String(),
  url: Type.String(),
  uri: Type.String(),
  display_name: Type.String(),
  note: Type.String(),
  avatar: Type.String(),
  avatar_static: Type.String(),
  header: Type.String(),
  header_static: Type.String(),
  locked: Type.Boolean(),
  fields: Type.Array(FieldSchema),
  emojis: Type.Array(CustomEmojiSchema),
  bot: Type.Boolean(),
  group: Type.Boolean(),
  discoverable: Nullable(Type.Boolean()),
  noindex: Nullable(Type.Boolean()),
  indexable: Type.Boolean(),
  hide_collections: Nullable(Type.Boolean()),
  suspended: Type.Optional(Type.Boolean()),
  limited: Type.Optional(Type.Boolean()),
  created_at: Type.String(),
  last_status_at: Nullable(Type.String()),
  statuses_count: Type.Integer(),
  followers_count: Type.Integer(),
  following_count: Type.Integer(),
  roles: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), color: Type.String() })),
}

export const AccountSchema = Type.Object(accountFields, { title: 'MastodonAccount' })
export type Account = Static<typeof AccountSchema>

/** The signed-in person's own account, with what only they see (verify_credentials). */
export const CredentialAccountSchema = Type.Composite(
  [AccountSchema, Type.Object({ source: SourceSchema, role: RoleSchema })],
  { title: 'MastodonCredentialAccount' },
)
export type CredentialAccount = Static<typeof CredentialAccountSchema>

export const PreferencesSchema = Type.Object(
  {
    'posting:default:visibility': Type.String(),
    'posting:default:sensitive': Type.Boolean(),
    'posting:default:language': Nullable(Type.String()),
    'reading:expand:media': Type.String(),
    'reading:expand:spoilers': Type.Boolean(),
  },
  { title: 'MastodonPreferences' },
)

const MarkerSchema = Type.Object(
  { last_read_id: Type.String(), version: Type.Integer(), updated_at: Type.String() },
  { title: 'MastodonMarker' },
)
export const MarkersSchema = Type.Object(
  { home: Type.Optional(MarkerSchema), notifications: Type.Optional(MarkerSchema) },
  { title: 'MastodonMarkers' },
)

const StatusLimitsSchema = Type.Object({
  max_characters: Type.Integer(),
  max_media_attachments: Type.Integer(),
  characters_reserved_per_url: Type.Integer(),
})
const MediaLimitsSchema = Type.Object({
  supported_mime_types: Type.Array(Type.String()),
  description_limit: Type.Integer(),
  image_size_limit: Type.Integer(),
  image_matrix_limit: Type.Integer(),
  video_size_limit: Type.Integer(),
  video_frame_rate_limit: Type.Integer(),
  video_matrix_limit: Type.Integer(),
})
const PollLimitsSchema = Type.Object({
  max_options: Type.Integer(),
  max_characters_per_option: Type.Integer(),
  min_expiration: Type.Integer(),
  max_expiration: Type.Integer(),
})
const AccountLimitsSchema = Type.Object({ max_featured_tags: Type.Integer(), max_pinned_statuses: Type.Integer() })
const RuleSchema = Type.Object({ id: Type.String(), text: Type.String(), hint: Type.String() })

export const InstanceV1Schema = Type.Object(
  {
    uri: Type.String(),
    title: Type.String(),
    short_description: Type.String(),
    description: Type.String(),
    email: Type.String(),
    version: Type.String(),
    urls: Type.Object({ streaming_api: Type.String() }),
    stats: Type.Object({ user_count: Type.Integer(), status_count: Type.Integer(), domain_count: Type.Integer() }),
    thumbnail: Nullable(Type.String()),
    languages: Type.Array(Type.String()),
    registrations: Type.Boolean(),
    approval_required: Type.Boolean(),
    invites_enabled: Type.Boolean(),
    configuration: Type.Object({
      accounts: AccountLimitsSchema,
      statuses: StatusLimitsSchema,
      media_attachments: MediaLimitsSchema,
      polls: PollLimitsSchema,
    }),
    contact_account: Type.Null(),
    rules: Type.Array(RuleSchema),
  },
  { title: 'MastodonInstanceV1' },
)

export const InstanceV2Schema = Type.Object(
  {
    domain: Type.String(),
    title: Type.String(),
    version: Type.String(),
    source_url: Type.String(),
    description: Type.String(),
    usage: Type.Object({ users: Type.Object({ active_month: Type.Integer() }) }),
    thumbnail: Type.Object({ url: Type.String() }),
    icon: Type.Array(Type.Object({ src: Type.String(), size: Type.String() })),
    languages: Type.Array(Type.String()),
    configuration: Type.Object({
      urls: Type.Object({ streaming: Type.String() }),
      accounts: AccountLimitsSchema,
      statuses: StatusLimitsSchema,
      media_attachments: MediaLimitsSchema,
      polls: PollLimitsSchema,
      translation: Type.Object({ enabled: Type.Boolean() }),
      vapid: Type.Object({ public_key: Type.String() }),
    }),
    registrations: Type.Object({
      enabled: Type.Boolean(),
      approval_required: Type.Boolean(),
      message: Nullable(Type.String()),
      url: Nullable(Type.String()),
    }),
    api_versions: Type.Object({ mastodon: Type.Integer() }),
    contact: Type.Object({ email: Type.String(), account: Type.Null() }),
    rules: Type.Array(RuleSchema),
  },
  { title: 'MastodonInstanceV2' },
)

/** RFC 8414: what an app learns of this server's OAuth before it registers. */
export const AuthorizationServerSchema = Type.Object(
  {
    issuer: Type.String(),
    service_documentation: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    revocation_endpoint: Type.String(),
    app_registration_endpoint: Type.String(),
    scopes_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    response_modes_supported: Type.Array(Type.String()),
    grant_types_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    code_challenge_methods_supported: Type.Array(Type.String()),
  },
  { title: 'OAuthAuthorizationServer' },
)
