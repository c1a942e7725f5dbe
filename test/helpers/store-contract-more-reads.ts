import { namePrefixesOf, searchTermsOf } from '../../server/store/text-terms.js'
import { MALFORMED, UNKNOWN, everyPage, type Fixture, type ReadCase } from './store-contract.js'

/** The reads of tags, search, notifications, tokens, moderation, relations and accounts. */
export function otherReads(f: Fixture): ReadCase[] {
  const { u, p, at, fresh } = f
  const u0 = u[0] as string
  return [
    { op: 'listTaggedPosts', name: 'newest first', read: (s) => s.listTaggedPosts('chirp', {}) },
    { op: 'listTaggedPosts', name: 'a tag nobody used', read: (s) => s.listTaggedPosts('nothing', { limit: 3 }) },
    { op: 'trendingTags', name: 'most used first', read: (s) => s.trendingTags(at(-600), 5) },
    { op: 'trendingTags', name: 'without the hidden', read: (s) => s.trendingTags(at(-600), 5, [u[3] as string]) },
    { op: 'trendingTags', name: 'none since', read: (s) => s.trendingTags(at(6000), 5) },
    {
      op: 'searchPosts',
      name: 'every term, newest first, pages of four',
      read: (s) => everyPage((cursor) => s.searchPosts(searchTermsOf('post'), { limit: 4, cursor })),
    },
    { op: 'searchPosts', name: 'no match', read: (s) => s.searchPosts(searchTermsOf('post zebra'), {}) },
    {
      op: 'searchUsers',
      name: 'by name prefixes',
      read: (s) => s.searchUsers({ prefixes: namePrefixesOf('pers') }, {}),
    },
    {
      op: 'searchUsers',
      name: 'by username prefix, pages of two, without the hidden',
      read: (s) =>
        everyPage((cursor) =>
          s.searchUsers({ prefixes: [], username: 'person_' }, { limit: 2, cursor, hide: [u[1] as string] }),
        ),
    },
    { op: 'getNotification', name: 'one', read: (s) => s.getNotification(fresh.notification) },
    { op: 'getNotification', name: 'unknown', read: (s) => s.getNotification(MALFORMED) },
    { op: 'listNotifications', name: 'newest first', read: (s) => s.listNotifications(u[4] as string, {}) },
    { op: 'listNotifications', name: 'of nobody', read: (s) => s.listNotifications(UNKNOWN, { limit: 2 }) },
    { op: 'countUnread', name: 'a user', read: (s) => s.countUnread(u[4] as string) },
    { op: 'countUnread', name: 'nobody', read: (s) => s.countUnread(MALFORMED) },
    { op: 'listUnreadNotifications', name: 'newest first', read: (s) => s.listUnreadNotifications(u[4] as string) },
    { op: 'listUnreadNotifications', name: 'of nobody', read: (s) => s.listUnreadNotifications(MALFORMED) },
    { op: 'isTokenRevoked', name: 'a revoked token', read: (s) => s.isTokenRevoked(fresh.token) },
    { op: 'isTokenRevoked', name: 'any other', read: (s) => s.isTokenRevoked(UNKNOWN) },
    { op: 'getReport', name: 'one', read: (s) => s.getReport(fresh.report) },
    { op: 'getReport', name: 'unknown', read: (s) => s.getReport(MALFORMED) },
    { op: 'listReports', name: 'open, newest first', read: (s) => s.listReports('open', {}) },
    { op: 'listReports', name: 'resolved', read: (s) => s.listReports('resolved', { limit: 5 }) },
    { op: 'countOpenReports', name: 'all of them', read: (s) => s.countOpenReports() },
    { op: 'countReportsSince', name: 'a reporter', read: (s) => s.countReportsSince(u[2] as string, at(0)) },
    { op: 'countReportsSince', name: 'since later', read: (s) => s.countReportsSince(u[2] as string, at(900)) },
    { op: 'countReportsSince', name: 'nobody', read: (s) => s.countReportsSince(MALFORMED, at(0)) },
    { op: 'listAuditLog', name: 'newest first', read: (s) => s.listAuditLog({}) },
    { op: 'listInvites', name: 'newest first', read: (s) => s.listInvites({}) },
    { op: 'listPendingUsers', name: 'oldest first', read: (s) => s.listPendingUsers({}) },
    { op: 'listStaffIds', name: 'moderators and admins', read: async (s) => (await s.listStaffIds()).sort() },
    { op: 'listSuspended', name: 'in force now', read: (s) => s.listSuspended(at(30)) },
    { op: 'listSuspended', name: 'after they ended', read: (s) => s.listSuspended(at(100_000)) },
    ...[0, 3, 4].map((i): ReadCase => ({
      op: 'relationsOf',
      name: `of user ${i}`,
      read: (s) => s.relationsOf(u[i] as string, at(30)),
    })),
    { op: 'relationsOf', name: 'of nobody', read: (s) => s.relationsOf(MALFORMED, at(30)) },
    {
      op: 'relationBetween',
      name: 'both ways',
      read: async (s) => [
        await s.relationBetween(u[3] as string, u[4] as string, at(30)),
        await s.relationBetween(u[4] as string, u[3] as string, at(30)),
      ],
    },
    { op: 'relationBetween', name: 'after a mute ended', read: (s) => s.relationBetween(u0, u[6] as string, at(9000)) },
    { op: 'relationBetween', name: 'with nobody', read: (s) => s.relationBetween(u0, MALFORMED, at(30)) },
    { op: 'listBlocks', name: 'most recent first', read: (s) => s.listBlocks(u[3] as string, {}) },
    { op: 'listBlocks', name: 'of nobody', read: (s) => s.listBlocks(UNKNOWN, { limit: 2 }) },
    { op: 'listMutes', name: 'running, most recent first', read: (s) => s.listMutes(u0, at(30), {}) },
    { op: 'listMutes', name: 'after they ended', read: (s) => s.listMutes(u0, at(9000), {}) },
    { op: 'usersWithEmail', name: 'any case', read: (s) => s.usersWithEmail('P2@EXAMPLE.COM') },
    { op: 'usersWithEmail', name: 'nobody', read: (s) => s.usersWithEmail('none@example.com') },
    { op: 'getTwoFactor', name: 'one set up', read: (s) => s.getTwoFactor(u[6] as string) },
    { op: 'getTwoFactor', name: 'never set up', read: (s) => s.getTwoFactor(u[5] as string) },
    { op: 'getTwoFactor', name: 'nobody', read: (s) => s.getTwoFactor(MALFORMED) },
    { op: 'getActorKeys', name: 'made once', read: (s) => s.getActorKeys(u[6] as string) },
    { op: 'getActorKeys', name: 'never made', read: (s) => s.getActorKeys(u[5] as string) },
    { op: 'getActorKeys', name: 'nobody', read: (s) => s.getActorKeys(MALFORMED) },
    { op: 'getPost', name: 'after the writes', read: (s) => s.getPosts([fresh.post, ...p]) },
  ]
}
