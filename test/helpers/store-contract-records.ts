import { randomUUID } from 'node:crypto'
import type { NotificationRecord, PostRecord, ReportRecord, UserRecord } from '../../server/store/types.js'
import { MALFORMED, REPORTED_IMAGE, UNKNOWN, type Fixture, type WriteCase } from './store-contract.js'

/** Key pairs told apart by a mark, so a row shows which were kept; the store keeps them as they come. */
const actorKeys = (mark: string, createdAt: string) => ({
  rsaPublic: `rsa-public-${mark}`,
  rsaPrivate: `rsa-private-${mark}`,
  ed25519Public: `ed25519-public-${mark}`,
  ed25519Private: `ed25519-private-${mark}`,
  createdAt,
})

/** A person of another server as remote-people.ts keeps them; `changes` for a later fetch of their actor. */
/** A post of the remote person, as it came from their server. */
function remotePost(f: Fixture): PostRecord {
  return {
    _id: f.fresh.remotePost,
    authorId: f.fresh.remote,
    content: 'from afar',
    mediaUrl: '',
    type: '',
    createdAt: f.at(52),
    updatedAt: f.at(52),
    likedBy: [],
    dislikedBy: [],
    comments: [],
    likeCount: 0,
    commentCount: 0,
    remote: {
      noteId: 'https://remote.example/notes/1',
      url: 'https://remote.example/@faraway/1',
      html: '<p>from afar</p>',
    },
  }
}

function remotePerson(f: Fixture, changes: Partial<UserRecord> = {}): UserRecord {
  return {
    ...f.newcomer,
    _id: f.fresh.remote,
    username: 'faraway@remote.example',
    email: '',
    passwordHash: '',
    displayName: 'Far Away',
    bannerURL: 'https://remote.example/banner.png',
    locked: true,
    remote: {
      actorId: 'https://remote.example/users/faraway',
      inbox: 'https://remote.example/users/faraway/inbox',
      sharedInbox: 'https://remote.example/inbox',
      url: 'https://remote.example/@faraway',
      keyIds: ['https://remote.example/users/faraway#main-key'],
      fetchedAt: f.at(49),
    },
    ...changes,
  }
}

/** The writes of notifications, reports, the audit log, invites, two-factor state, tokens and events. */
export function recordWrites(f: Fixture): WriteCase[] {
  const { u, p, at, fresh, c1 } = f
  const [u0, u1, u2, , u4, u5, u6, u7] = u as [string, string, string, string, string, string, string, string]
  const like: NotificationRecord = {
    _id: fresh.notification,
    type: 'like',
    recipientId: u4,
    actorId: u1,
    postId: p[4] as string,
    createdAt: at(40),
    read: false,
  }
  const follow: NotificationRecord = {
    _id: fresh.resolved,
    type: 'follow',
    recipientId: u4,
    actorId: u5,
    createdAt: at(41),
    read: false,
  }
  const note = (changes: Partial<NotificationRecord>): NotificationRecord => ({ ...like, _id: UNKNOWN, ...changes })
  const report = (_id: string, createdAt: string): ReportRecord => ({
    _id,
    reporterId: u2,
    targetType: 'comment',
    targetId: c1,
    postId: p[1] as string,
    subjectId: u1,
    snapshot: { text: 'as it was' },
    category: 'spam',
    comment: 'look',
    status: 'open',
    createdAt,
  })
  const resolution = { action: 'dismiss', note: 'fine', resolvedBy: u7, resolvedAt: at(50) } as const
  const invite = { createdBy: u7, uses: 1, used: 0, createdAt: at(51) }
  return [
    { op: 'addNotification', name: 'a like', write: (tx) => tx.addNotification(like) },
    { op: 'addNotification', name: 'the same again', write: (tx) => tx.addNotification({ ...like, _id: UNKNOWN }) },
    { op: 'addNotification', name: 'a follow', write: (tx) => tx.addNotification(follow) },
    { op: 'addNotification', name: 'by nobody', write: (tx) => tx.addNotification(note({ actorId: UNKNOWN })) },
    {
      op: 'addNotification',
      name: 'about no post',
      write: (tx) => tx.addNotification(note({ type: 'comment', postId: UNKNOWN })),
    },
    {
      op: 'addNotification',
      name: 'about a comment of another post',
      write: (tx) => tx.addNotification(note({ type: 'comment', commentId: c1 })),
    },
    { op: 'markNotificationsRead', name: 'up to one', write: (tx) => tx.markNotificationsRead(u4, like) },
    { op: 'markNotificationsRead', name: 'all', write: (tx) => tx.markNotificationsRead(u4, undefined) },
    { op: 'markNotificationsRead', name: 'of nobody', write: (tx) => tx.markNotificationsRead(MALFORMED, undefined) },
    {
      op: 'removeNotifications',
      name: 'one',
      write: (tx) => tx.removeNotifications({ identity: { type: 'follow', recipientId: u4, actorId: u5 } }),
    },
    {
      op: 'removeNotifications',
      name: 'of a post with none',
      write: (tx) => tx.removeNotifications({ postId: p[0] as string }),
    },
    { op: 'removeNotifications', name: 'of a comment', write: (tx) => tx.removeNotifications({ commentId: UNKNOWN }) },
    {
      op: 'addNotification',
      name: 'a follow, left unread',
      write: (tx) => tx.addNotification({ ...follow, _id: fresh.unread, recipientId: u0, actorId: u1 }),
    },
    {
      op: 'removeNotifications',
      name: 'between two, one unread',
      write: (tx) => tx.removeNotifications({ between: [u0, u1] }),
    },
    {
      op: 'removeNotifications',
      name: 'every one to a person, read and unread',
      write: (tx) => tx.removeNotifications({ recipientId: u4 }),
    },
    { op: 'removeNotifications', name: 'to nobody', write: (tx) => tx.removeNotifications({ recipientId: MALFORMED }) },
    {
      op: 'addNotifications',
      name: 'several, two to one recipient, one read, one there already, one by nobody, one about no post',
      write: (tx) =>
        tx.addNotifications([
          { ...like, _id: randomUUID(), actorId: u2 },
          { ...follow, _id: randomUUID(), actorId: u6 },
          { ...follow, _id: randomUUID(), recipientId: u0, actorId: u5, read: true },
          { ...follow, _id: randomUUID(), recipientId: u1, actorId: u0 },
          { ...like, _id: randomUUID() },
          note({ _id: randomUUID(), actorId: UNKNOWN }),
          note({ _id: randomUUID(), type: 'comment', postId: UNKNOWN }),
          note({ _id: randomUUID(), type: 'comment', commentId: c1 }),
        ]),
    },
    { op: 'addNotifications', name: 'none', write: (tx) => tx.addNotifications([]) },
    {
      op: 'removeNotificationsOf',
      name: 'several, one read, one not there, one malformed',
      write: (tx) =>
        tx.removeNotificationsOf([
          { type: 'like', recipientId: u4, actorId: u2, postId: p[4] as string },
          { type: 'follow', recipientId: u4, actorId: u6 },
          { type: 'follow', recipientId: u0, actorId: u5 },
          { type: 'follow', recipientId: u7, actorId: u6 },
          { type: 'follow', recipientId: MALFORMED, actorId: u6 },
        ]),
    },
    { op: 'removeNotificationsOf', name: 'none', write: (tx) => tx.removeNotificationsOf([]) },
    { op: 'addReport', name: 'a report', write: (tx) => tx.addReport(report(fresh.report, at(42))) },
    { op: 'addReport', name: 'another', write: (tx) => tx.addReport(report(fresh.resolved, at(43))) },
    {
      op: 'addReport',
      name: 'one whose snapshot shows an image, left open',
      write: (tx) =>
        tx.addReport({
          ...report(fresh.evidence, at(44)),
          targetType: 'post',
          targetId: p[5] as string,
          subjectId: u5,
          snapshot: { content: 'as it was', mediaUrl: REPORTED_IMAGE },
        }),
    },
    { op: 'resolveReport', name: 'an open report', write: (tx) => tx.resolveReport(fresh.resolved, resolution) },
    { op: 'resolveReport', name: 'a resolved report', write: (tx) => tx.resolveReport(fresh.resolved, resolution) },
    { op: 'resolveReport', name: 'no report', write: (tx) => tx.resolveReport(MALFORMED, resolution) },
    {
      op: 'addAuditEntry',
      name: 'by a moderator',
      write: (tx) =>
        tx.addAuditEntry({
          _id: fresh.audit,
          actorId: u7,
          action: 'suspend',
          targetType: 'user',
          targetId: u5,
          reason: 'spam',
          createdAt: at(44),
        }),
    },
    {
      op: 'addAuditEntry',
      name: 'by the command line',
      write: (tx) =>
        tx.addAuditEntry({
          _id: fresh.token,
          actorId: null,
          action: 'role',
          targetType: 'user',
          targetId: u7,
          createdAt: at(45),
        }),
    },
    {
      op: 'addInvite',
      name: 'for one signup',
      write: (tx) => tx.addInvite({ ...invite, _id: 'ONE-USE', expiresAt: null }),
    },
    {
      op: 'addInvite',
      name: 'that expires',
      write: (tx) => tx.addInvite({ ...invite, _id: 'EXPIRES', expiresAt: at(55) }),
    },
    { op: 'useInvite', name: 'an invite', write: (tx) => tx.useInvite('ONE-USE', at(52)) },
    { op: 'useInvite', name: 'used up', write: (tx) => tx.useInvite('ONE-USE', at(52)) },
    { op: 'useInvite', name: 'expired', write: (tx) => tx.useInvite('EXPIRES', at(55)) },
    { op: 'useInvite', name: 'unknown', write: (tx) => tx.useInvite('NOPE', at(52)) },
    { op: 'beginTwoFactor', name: 'a setup', write: (tx) => tx.beginTwoFactor(u6, 'sealed-1') },
    { op: 'beginTwoFactor', name: 'a setup again, a new secret', write: (tx) => tx.beginTwoFactor(u6, 'sealed-2') },
    { op: 'beginTwoFactor', name: 'nobody', write: (tx) => tx.beginTwoFactor(UNKNOWN, 'sealed') },
    {
      op: 'enableTwoFactor',
      name: 'with the old secret',
      write: (tx) => tx.enableTwoFactor(u6, 'sealed-1', 5, ['r1']),
    },
    {
      op: 'enableTwoFactor',
      name: 'with the secret set up',
      write: (tx) => tx.enableTwoFactor(u6, 'sealed-2', 5, ['r1', 'r2']),
    },
    { op: 'enableTwoFactor', name: 'again', write: (tx) => tx.enableTwoFactor(u6, 'sealed-2', 6, []) },
    { op: 'beginTwoFactor', name: 'once enabled', write: (tx) => tx.beginTwoFactor(u6, 'sealed-3') },
    { op: 'useTwoFactor', name: 'a later step', write: (tx) => tx.useTwoFactor(u6, { step: 6 }) },
    { op: 'useTwoFactor', name: 'that step again', write: (tx) => tx.useTwoFactor(u6, { step: 6 }) },
    { op: 'useTwoFactor', name: 'a recovery code', write: (tx) => tx.useTwoFactor(u6, { recoveryCode: 'r1' }) },
    { op: 'useTwoFactor', name: 'that code again', write: (tx) => tx.useTwoFactor(u6, { recoveryCode: 'r1' }) },
    { op: 'useTwoFactor', name: 'while off', write: (tx) => tx.useTwoFactor(u5, { step: 9 }) },
    { op: 'beginTwoFactor', name: 'a second user', write: (tx) => tx.beginTwoFactor(u4, 'sealed-4') },
    { op: 'disableTwoFactor', name: 'a setup', write: (tx) => tx.disableTwoFactor(u4) },
    { op: 'disableTwoFactor', name: 'while off', write: (tx) => tx.disableTwoFactor(u5) },
    { op: 'addActorKeys', name: 'the first pairs', write: (tx) => tx.addActorKeys(u6, actorKeys('first', at(47))) },
    { op: 'addActorKeys', name: 'pairs again', write: (tx) => tx.addActorKeys(u6, actorKeys('second', at(48))) },
    { op: 'addActorKeys', name: 'nobody', write: (tx) => tx.addActorKeys(UNKNOWN, actorKeys('third', at(48))) },
    { op: 'addActorKeys', name: 'a malformed id', write: (tx) => tx.addActorKeys(MALFORMED, actorKeys('x', at(48))) },
    { op: 'saveRemoteUser', name: 'a new remote person', write: (tx) => tx.saveRemoteUser(remotePerson(f)) },
    {
      op: 'getUserByActor',
      name: 'a remote person',
      write: (tx) => tx.getUserByActor('https://remote.example/users/faraway'),
    },
    { op: 'getUserByActor', name: 'an actor nobody knows', write: (tx) => tx.getUserByActor('https://x.example/a') },
    { op: 'follow', name: 'a remote person', write: (tx) => tx.follow(u2, f.fresh.remote, at(50)) },
    {
      op: 'saveRemoteUser',
      name: 'their actor fetched again: the profile replaced, the follows kept',
      write: async (tx) => {
        const { displayName: _d, bannerURL: _b, locked: _l, ...rest } = remotePerson(f)
        await tx.saveRemoteUser({
          ...rest,
          username: 'faraway@remote.example',
          bio: 'a new bio',
          updatedAt: at(51),
          remote: { ...(rest.remote as NonNullable<UserRecord['remote']>), fetchedAt: at(51) },
        })
        return tx.getUserByActor('https://remote.example/users/faraway')
      },
    },
    {
      op: 'insertPost',
      name: 'a remote post',
      write: (tx) => tx.insertPost(remotePost(f)),
    },
    {
      op: 'getPostByNote',
      name: 'a remote post, by its note',
      write: (tx) => tx.getPostByNote('https://remote.example/notes/1'),
    },
    { op: 'getPostByNote', name: 'a note nobody keeps', write: (tx) => tx.getPostByNote('https://x.example/n') },
    {
      op: 'getPostByNote',
      name: 'once the post is deleted',
      write: async (tx) => {
        await tx.deletePost(f.fresh.remotePost)
        return tx.getPostByNote('https://remote.example/notes/1')
      },
    },
    {
      op: 'revokeToken',
      name: 'a token',
      write: (tx) => tx.revokeToken({ _id: fresh.token, userId: u0, expiresAt: at(600) }, at(46)),
    },
    {
      op: 'revokeToken',
      name: 'again',
      write: (tx) => tx.revokeToken({ _id: fresh.token, userId: u0, expiresAt: at(600) }, at(47)),
    },
    {
      op: 'emit',
      name: 'an event, published once committed',
      write: async (tx) => tx.emit({ name: 'bookmark.added', data: { postId: p[3] as string }, to: u2 }),
    },
  ]
}
