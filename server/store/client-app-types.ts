/**
 * What the Mastodon client API (DECISIONS §13) keeps: the apps registered through it, the authorization
 * codes its sign-in page hands out, and each person's reading positions.
 */

/** An app registered with POST /api/v1/apps. */
export interface AppRecord {
  /** The app's client_id. */
  readonly _id: string
  /** SHA-256 of its client_secret, in base64url: the secret itself is shown once and never kept. */
  readonly secretHash: string
  readonly name: string
  readonly website: string | null
  readonly redirectUris: readonly string[]
  readonly scopes: readonly string[]
  readonly createdAt: string
}

/** A code the sign-in page gave an app, traded once for a token before it expires. */
export interface AuthorizationCodeRecord {
  /** SHA-256 of the code, in base64url: a leaked copy of the store hands out no codes. */
  readonly _id: string
  readonly appId: string
  readonly userId: string
  readonly redirectUri: string
  readonly scopes: readonly string[]
  /** The PKCE S256 challenge the app sent with its request, when it sent one. */
  readonly codeChallenge: string | null
  readonly expiresAt: string
  readonly createdAt: string
}

export type MarkerTimeline = 'home' | 'notifications'
export const MARKER_TIMELINES: readonly MarkerTimeline[] = ['home', 'notifications']

/** Where a person stopped reading a timeline; its version rises with each change. */
export interface MarkerRecord {
  /** `<userId>/<timeline>`. */
  readonly _id: string
  readonly userId: string
  readonly timeline: MarkerTimeline
  readonly lastReadId: string
  readonly version: number
  readonly updatedAt: string
}

export const markerId = (userId: string, timeline: MarkerTimeline) => `${userId}/${timeline}`

/** What both stores read and write of these. */
/**
 * How many accounts (signups waiting for approval left out), posts and comments the server has: what the
 * Mastodon API's instance and NodeInfo tell of the community.
 */
export interface LocalCounts {
  users: number
  posts: number
  comments: number
}

export interface ClientAppReads {
  getApp(id: string): Promise<AppRecord | undefined>
  /** How many people have an account (a signup waiting for approval is nobody yet) and how many posts there are. */
  countCommunity(): Promise<LocalCounts>
  /** The user's markers, in no particular order; none for an unknown user. */
  listMarkers(userId: string): Promise<MarkerRecord[]>
  /** The user's push subscriptions, in no particular order. */
  listPushSubscriptions(userId: string): Promise<PushSubscriptionRecord[]>
  getPushSubscription(id: string): Promise<PushSubscriptionRecord | undefined>
  /** The community's custom emoji, by shortcode. */
  listCustomEmojis(): Promise<CustomEmojiRecord[]>
  getCustomEmoji(shortcode: string): Promise<CustomEmojiRecord | undefined>
}

export interface ClientAppWrites {
  createApp(app: AppRecord): Promise<void>
  /** Keeps the code; codes expired at `at` may be forgotten. */
  addAuthorizationCode(code: AuthorizationCodeRecord, at: string): Promise<void>
  /** The code, removed so it is used once; undefined when unknown, used already or expired at `at`. */
  takeAuthorizationCode(id: string, at: string): Promise<AuthorizationCodeRecord | undefined>
  /** The marker as it now is, its version one more than before; undefined for an unknown user. */
  setMarker(userId: string, timeline: MarkerTimeline, lastReadId: string, at: string): Promise<MarkerRecord | undefined>
  /** Keeps the subscription, in place of any of the same id; false for an unknown user. */
  putPushSubscription(subscription: PushSubscriptionRecord): Promise<boolean>
  /** False when there was none. */
  removePushSubscription(id: string): Promise<boolean>
  /** Keeps the emoji; false, changing nothing, when its shortcode is taken. */
  addCustomEmoji(emoji: CustomEmojiRecord): Promise<boolean>
  /** The emoji removed, or undefined when there was none. */
  removeCustomEmoji(shortcode: string): Promise<CustomEmojiRecord | undefined>
}

/** A custom emoji of the community (DECISIONS §15): `:shortcode:` in a text shows the image. */
export interface CustomEmojiRecord {
  /** The shortcode, without colons: 2 to 32 of A-Z, a-z, 0-9 and _. */
  readonly _id: string
  /** The re-encoded image, an upload of this server's. */
  readonly url: string
  readonly createdAt: string
}

/** The kinds of push a person may turn on: Chirp's kinds of notification, with a direct message apart from a mention. */
export type PushAlert =
  'mention' | 'direct' | 'comment' | 'reply' | 'quote' | 'like' | 'repost' | 'follow' | 'follow_request' | 'poll'

/** From whom pushes come: anyone, people the subscriber follows, people who follow them, nobody. */
export const PUSH_POLICIES = ['all', 'followed', 'follower', 'none'] as const
export type PushPolicy = (typeof PUSH_POLICIES)[number]

/**
 * A browser's or phone's Web Push subscription (RFC 8030), one a token as in Mastodon: signing out ends it.
 * The token itself is kept sealed, for the payload Mastodon apps expect (`access_token`).
 */
export interface PushSubscriptionRecord {
  /** The id of the token it was made with. */
  readonly _id: string
  readonly userId: string
  /** The push service's URL for this subscription. */
  readonly endpoint: string
  /** The browser's P-256 public key and its authentication secret, base64url (RFC 8291). */
  readonly p256dh: string
  readonly auth: string
  /** The kinds pushed; any other is not. */
  readonly alerts: readonly PushAlert[]
  readonly policy: PushPolicy
  /** The token, sealed with the server's key (services/account-secrets.ts). */
  readonly sealedToken: string
  /** When the token expires, and the subscription with it. */
  readonly expiresAt: string
  readonly createdAt: string
}
