import type {
  AppRecord,
  AuthorizationCodeRecord,
  CustomEmojiRecord,
  PushSubscriptionRecord,
} from '../../server/store/types.js'
import { MALFORMED, UNKNOWN, type ContractCase, type Fixture, type ReadCase } from './store-contract.js'

const sortedMarkers = <T extends { _id: string }>(markers: T[]) =>
  [...markers].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))

/** The reads of apps and markers: before any is made, and after the writes and deletions. */
export function clientAppReads(f: Fixture): ReadCase[] {
  const [u0, , , , u4] = f.u as [string, string, string, string, string]
  return [
    { op: 'countCommunity', name: 'people and posts', read: (s) => s.countCommunity() },
    { op: 'getApp', name: 'an app', read: (s) => s.getApp('contract-app') },
    { op: 'getApp', name: 'an unknown app', read: (s) => s.getApp('no-such-app') },
    { op: 'listMarkers', name: "someone's markers", read: async (s) => sortedMarkers(await s.listMarkers(u0)) },
    { op: 'listMarkers', name: 'of someone deleted later', read: (s) => s.listMarkers(u4) },
    { op: 'listMarkers', name: 'of nobody', read: (s) => s.listMarkers(MALFORMED) },
    {
      op: 'listPushSubscriptions',
      name: "someone's push subscriptions",
      read: async (s) => sortedMarkers(await s.listPushSubscriptions(u0)),
    },
    { op: 'listPushSubscriptions', name: 'of someone deleted later', read: (s) => s.listPushSubscriptions(u4) },
    { op: 'listPushSubscriptions', name: 'of nobody', read: (s) => s.listPushSubscriptions(MALFORMED) },
    { op: 'getPushSubscription', name: 'a push subscription', read: (s) => s.getPushSubscription('token-a') },
    { op: 'getPushSubscription', name: 'an unknown one', read: (s) => s.getPushSubscription('no-such-token') },
    { op: 'listCustomEmojis', name: 'the custom emoji, by shortcode', read: (s) => s.listCustomEmojis() },
    { op: 'getCustomEmoji', name: 'a custom emoji', read: (s) => s.getCustomEmoji('blob_cat') },
    { op: 'getCustomEmoji', name: 'a shortcode of another case', read: (s) => s.getCustomEmoji('BLOB_CAT') },
    { op: 'getCustomEmoji', name: 'an emoji removed', read: (s) => s.getCustomEmoji('gone') },
  ]
}

/**
 * An app registered, codes given and each traded once (an expired one for nothing), markers set and set
 * again; u[4]'s code and marker stay for its deletion to take.
 */
export function clientAppWrites(f: Fixture): ContractCase[] {
  const { at } = f
  const [u0, , , , u4] = f.u as [string, string, string, string, string]
  const app: AppRecord = {
    _id: 'contract-app',
    secretHash: 'c2VjcmV0',
    name: 'Contract',
    website: null,
    redirectUris: ['urn:ietf:wg:oauth:2.0:oob', 'https://app.example/back'],
    scopes: ['read', 'write:statuses'],
    createdAt: at(90),
  }
  const push = (id: string, userId: string): PushSubscriptionRecord => ({
    _id: id,
    userId,
    endpoint: `https://push.example/${id}`,
    p256dh: 'BPublicKey',
    auth: 'c2VjcmV0',
    alerts: ['mention', 'direct', 'follow'],
    policy: 'all',
    sealedToken: 'v1.sealed',
    expiresAt: at(200),
    createdAt: at(94),
  })
  const emoji = (shortcode: string, made: number): CustomEmojiRecord => ({
    _id: shortcode,
    url: `/uploads/${shortcode}-${made}.png`,
    createdAt: at(made),
  })
  const code = (id: string, userId: string, expires: number, appId = app._id): AuthorizationCodeRecord => ({
    _id: id,
    appId,
    userId,
    redirectUri: 'https://app.example/back',
    scopes: ['read'],
    codeChallenge: id === 'code-a' ? 'Y2hhbGxlbmdl' : null,
    expiresAt: at(expires),
    createdAt: at(90),
  })
  return [
    { op: 'createApp', name: 'an app', write: (tx) => tx.createApp(app) },
    { op: 'getApp', name: 'in the same transaction', read: (s) => s.getApp(app._id) },
    {
      op: 'addAuthorizationCode',
      name: 'a code',
      write: (tx) => tx.addAuthorizationCode(code('code-a', u0, 95), at(91)),
    },
    {
      op: 'addAuthorizationCode',
      name: 'one that expires',
      write: (tx) => tx.addAuthorizationCode(code('code-b', u0, 92), at(91)),
    },
    {
      op: 'addAuthorizationCode',
      name: 'of an unknown app',
      write: (tx) => tx.addAuthorizationCode(code('code-c', u0, 95, 'no-such-app'), at(91)),
    },
    {
      op: 'addAuthorizationCode',
      name: 'for nobody',
      write: (tx) => tx.addAuthorizationCode(code('code-d', UNKNOWN, 95), at(91)),
    },
    {
      op: 'addAuthorizationCode',
      name: 'for someone deleted later',
      write: (tx) => tx.addAuthorizationCode(code('code-e', u4, 300), at(91)),
    },
    { op: 'takeAuthorizationCode', name: 'traded', write: (tx) => tx.takeAuthorizationCode('code-a', at(93)) },
    { op: 'takeAuthorizationCode', name: 'traded again', write: (tx) => tx.takeAuthorizationCode('code-a', at(93)) },
    { op: 'takeAuthorizationCode', name: 'expired', write: (tx) => tx.takeAuthorizationCode('code-b', at(93)) },
    { op: 'takeAuthorizationCode', name: 'never given', write: (tx) => tx.takeAuthorizationCode('code-c', at(93)) },
    {
      op: 'takeAuthorizationCode',
      name: 'given and taken in one transaction',
      write: async (tx) => {
        await tx.addAuthorizationCode(code('code-f', u0, 95), at(93))
        return tx.takeAuthorizationCode('code-f', at(93))
      },
    },
    { op: 'setMarker', name: 'a marker', write: (tx) => tx.setMarker(u0, 'home', '100', at(94)) },
    { op: 'setMarker', name: 'moved on', write: (tx) => tx.setMarker(u0, 'home', '105', at(95)) },
    { op: 'setMarker', name: 'another timeline', write: (tx) => tx.setMarker(u0, 'notifications', '7', at(95)) },
    { op: 'setMarker', name: 'for nobody', write: (tx) => tx.setMarker(UNKNOWN, 'home', '1', at(95)) },
    { op: 'setMarker', name: 'for nobody at all', write: (tx) => tx.setMarker(MALFORMED, 'home', '1', at(95)) },
    {
      op: 'setMarker',
      name: 'of someone deleted later',
      write: (tx) => tx.setMarker(u4, 'notifications', '3', at(95)),
    },
    {
      op: 'putPushSubscription',
      name: 'a push subscription',
      write: (tx) => tx.putPushSubscription(push('token-a', u0)),
    },
    {
      op: 'putPushSubscription',
      name: 'replaced',
      write: (tx) => tx.putPushSubscription({ ...push('token-a', u0), alerts: ['like'], policy: 'followed' }),
    },
    { op: 'putPushSubscription', name: 'another', write: (tx) => tx.putPushSubscription(push('token-b', u0)) },
    { op: 'putPushSubscription', name: 'for nobody', write: (tx) => tx.putPushSubscription(push('t', UNKNOWN)) },
    {
      op: 'putPushSubscription',
      name: 'for nobody at all',
      write: (tx) => tx.putPushSubscription(push('t', MALFORMED)),
    },
    {
      op: 'putPushSubscription',
      name: 'of someone deleted later',
      write: (tx) => tx.putPushSubscription(push('token-d', u4)),
    },
    { op: 'removePushSubscription', name: 'removed', write: (tx) => tx.removePushSubscription('token-b') },
    { op: 'addCustomEmoji', name: 'a custom emoji', write: (tx) => tx.addCustomEmoji(emoji('blob_cat', 95)) },
    { op: 'addCustomEmoji', name: 'another, sorting first', write: (tx) => tx.addCustomEmoji(emoji('Zz', 96)) },
    { op: 'addCustomEmoji', name: 'one removed later', write: (tx) => tx.addCustomEmoji(emoji('gone', 97)) },
    { op: 'addCustomEmoji', name: 'a shortcode taken', write: (tx) => tx.addCustomEmoji(emoji('blob_cat', 98)) },
    { op: 'removeCustomEmoji', name: 'removed', write: (tx) => tx.removeCustomEmoji('gone') },
    { op: 'removeCustomEmoji', name: 'removed again', write: (tx) => tx.removeCustomEmoji('gone') },
    {
      op: 'listCustomEmojis',
      name: 'staged in the transaction',
      read: async (s) => s.listCustomEmojis(),
    },
    { op: 'removePushSubscription', name: 'removed again', write: (tx) => tx.removePushSubscription('token-b') },
    {
      op: 'getPushSubscription',
      name: 'staged in the transaction',
      read: async (s) => s.getPushSubscription('token-a'),
    },
    {
      op: 'listMarkers',
      name: 'staged in the transaction',
      read: async (s) => sortedMarkers(await s.listMarkers(u0)),
    },
  ]
}
