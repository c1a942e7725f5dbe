/**
 * What a person may be told of by mail (DECISIONS §15): mentions, direct messages, new followers and, for
 * moderators, reports. Mail is off for each until the person turns it on.
 */
export const MAIL_KINDS = ['mention', 'direct', 'follow', 'report'] as const
export type MailKind = (typeof MAIL_KINDS)[number]

/**
 * What a person may be pushed about, as Settings names it; each stands for the push alerts it turns on
 * and off on every device the person subscribed (a mention covers comments, replies and quotes too).
 */
export const PUSH_KINDS = ['mention', 'direct', 'follow', 'like', 'repost', 'poll'] as const
export type PushKind = (typeof PUSH_KINDS)[number]
