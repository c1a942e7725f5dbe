import type { AudienceScope, PostQuery } from '../../server/store/types.js'
import { searchTermsOf } from '../../server/store/text-terms.js'
import { MALFORMED, UNKNOWN, everyPage, type Fixture, type ReadCase } from './store-contract.js'

/**
 * The reads that keep to an audience (DECISIONS §12), each with every scope: where strangers browse, what
 * a profile or a feed shows, what one may read; for readers who follow, are followed, are addressed, are
 * nobody known, or are not signed in. The fixture's posts are of every audience (store-contract.ts).
 */
export function audienceReads(f: Fixture): ReadCase[] {
  const { u } = f
  const [u0, u1, u2, u3, u4, u5] = u as [string, string, string, string, string, string]
  const scopes: [string, AudienceScope][] = [
    ['listed', { kind: 'listed' }],
    ...[u0, u4, u5, UNKNOWN, MALFORMED, undefined].flatMap((readerId, i): [string, AudienceScope][] => [
      [`shown to reader ${i}`, { kind: 'shown', readerId }],
      [`readable by reader ${i}`, { kind: 'readable', readerId }],
    ]),
  ]
  const sorts: PostQuery['sort'][] = ['latest', 'oldest', 'trending']
  return [
    { op: 'followedAmong', name: 'whom of these the user follows', read: (s) => s.followedAmong(u0, [...u, UNKNOWN]) },
    { op: 'followedAmong', name: 'of nobody', read: (s) => s.followedAmong(MALFORMED, u) },
    { op: 'followedAmong', name: 'nobody asked', read: (s) => s.followedAmong(u1, [MALFORMED]) },
    ...[u0, u1, u4, UNKNOWN, MALFORMED].map((userId, i): ReadCase => ({
      op: 'feedAuthors',
      name: `a home feed's authors, user ${i}`,
      read: (s) => s.feedAuthors(userId),
    })),
    ...scopes.flatMap(([name, audience]): ReadCase[] => [
      ...sorts.map((sort): ReadCase => ({
        op: 'listPosts',
        name: `${sort}, ${name}, pages of two`,
        read: (s) => everyPage((cursor) => s.listPosts({ sort, limit: 2, cursor, audience })),
      })),
      {
        op: 'listPosts',
        name: `by two authors with an image, ${name}`,
        read: (s) => s.listPosts({ sort: 'latest', authorIds: [u2, u3], media: true, audience }),
      },
      {
        op: 'listPosts',
        name: `most liked without some likes and people, ${name}`,
        read: (s) => s.listPosts({ sort: 'trending', limit: 3, uncounted: [u4], hide: [u1], audience }),
      },
      { op: 'listPinned', name: name, read: (s) => s.listPinned(u3, audience) },
      {
        op: 'listBookmarks',
        name: `${name}, pages of one`,
        read: (s) => everyPage((cursor) => s.listBookmarks(u0, { limit: 1, cursor, audience })),
      },
      { op: 'listLikedPosts', name: name, read: (s) => s.listLikedPosts(u[7] as string, { audience }) },
      {
        op: 'countPosts',
        name: name,
        read: async (s) => Promise.all(u.map((author) => s.countPosts(author, audience))),
      },
      {
        op: 'searchPosts',
        name: `${name}, pages of two`,
        read: (s) => everyPage((cursor) => s.searchPosts(searchTermsOf('post'), { limit: 2, cursor, audience })),
      },
      { op: 'listTaggedPosts', name: name, read: (s) => s.listTaggedPosts('chirp', { audience }) },
    ]),
    ...[u0, u4, u5].map((userId, i): ReadCase => ({
      op: 'listPosts',
      name: `the home feed of reader ${i}, as it shows it`,
      read: (s) => s.listPosts({ sort: 'latest', feedOf: userId, audience: { kind: 'shown', readerId: userId } }),
    })),
    {
      op: 'trendingTags',
      name: 'public posts alone, since long ago',
      read: (s) => s.trendingTags('2025-01-01T00:00:00.000Z', 10),
    },
    ...[u4, u1].flatMap((userId, i): ReadCase[] => [
      {
        op: 'listNotifications',
        name: `about posts recipient ${i} may read, pages of two`,
        read: (s) => everyPage((cursor) => s.listNotifications(userId, { limit: 2, cursor })),
      },
      { op: 'countUnread', name: `what recipient ${i} is shown`, read: (s) => s.countUnread(userId) },
    ]),
  ]
}
