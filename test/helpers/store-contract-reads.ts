import type { PostQuery } from '../../server/store/types.js'
import { MALFORMED, UNKNOWN, everyPage, type Fixture, type ReadCase } from './store-contract.js'

/** The reads of people, posts, likes and comments: each with its normal case and its edge cases. */
export function contentReads(f: Fixture): ReadCase[] {
  const { u, p } = f
  const u0 = u[0] as string
  const sorts: PostQuery['sort'][] = ['latest', 'oldest', 'trending']
  return [
    { op: 'getUser', name: 'a user', read: (s) => s.getUser(u0) },
    { op: 'getUser', name: 'an unknown id', read: (s) => s.getUser(UNKNOWN) },
    { op: 'getUser', name: 'a malformed id', read: (s) => s.getUser(MALFORMED) },
    { op: 'getTokenHolder', name: 'a user', read: (s) => s.getTokenHolder(u[2] as string) },
    { op: 'getTokenHolder', name: 'nobody', read: (s) => s.getTokenHolder(MALFORMED) },
    { op: 'getAccount', name: 'a user, without their lists', read: (s) => s.getAccount(u[1] as string) },
    {
      op: 'getAccount',
      name: 'with a role, a suspension, a pending signup',
      read: async (s) => Promise.all([u[7], u[5], f.pending[1]._id].map((id) => s.getAccount(id as string))),
    },
    {
      op: 'getAccount',
      name: 'unknown and malformed',
      read: async (s) => [await s.getAccount(UNKNOWN), await s.getAccount(MALFORMED)],
    },
    { op: 'getUserByUsername', name: 'any case', read: (s) => s.getUserByUsername('PERSON_3') },
    { op: 'getUserByUsername', name: 'nobody', read: (s) => s.getUserByUsername('nobody_here') },
    {
      op: 'getUsers',
      name: 'in the order asked, repeats kept, unknown skipped',
      read: (s) => s.getUsers([u[3], u0, UNKNOWN, MALFORMED, u0] as string[]),
    },
    { op: 'getUsers', name: 'none asked', read: (s) => s.getUsers([]) },
    {
      op: 'getUserSummaries',
      name: 'in the order asked, unknown skipped',
      read: (s) => s.getUserSummaries([u[4], UNKNOWN, u[1], MALFORMED] as string[]),
    },
    { op: 'listUsers', name: 'oldest account first', read: (s) => s.listUsers({}) },
    {
      op: 'listUsers',
      name: 'pages of three, without the hidden',
      read: (s) => everyPage((cursor) => s.listUsers({ limit: 3, cursor, hide: [u[2] as string] })),
    },
    { op: 'listUsers', name: 'a malformed cursor', read: (s) => s.listUsers({ limit: 2, cursor: 'bad' }) },
    { op: 'suggestUsers', name: 'most followed first', read: (s) => s.suggestUsers(u[3] as string, 4) },
    {
      op: 'suggestUsers',
      name: 'neither those followed nor the hidden',
      read: (s) => s.suggestUsers(u0, 10, [u[7] as string]),
    },
    { op: 'suggestUsers', name: 'for nobody', read: (s) => s.suggestUsers(UNKNOWN, 3) },
    { op: 'getPost', name: 'a post', read: (s) => s.getPost(p[4] as string) },
    {
      op: 'getPost',
      name: 'unknown and malformed',
      read: async (s) => [await s.getPost(UNKNOWN), await s.getPost('p1')],
    },
    {
      op: 'getPosts',
      name: 'in the order asked, unknown skipped',
      read: (s) => s.getPosts([p[2], UNKNOWN, p[1], 'x', p[2]] as string[]),
    },
    {
      op: 'likedAmong',
      name: 'which of these the user likes',
      read: (s) => s.likedAmong(u[7] as string, [...p, UNKNOWN, MALFORMED]),
    },
    { op: 'likedAmong', name: 'an unknown user likes none', read: (s) => s.likedAmong(UNKNOWN, p) },
    {
      op: 'countLikesBy',
      name: 'likes of these posts by these people',
      read: async (s) => [...(await s.countLikesBy([...p, UNKNOWN, MALFORMED], [...u, UNKNOWN])).entries()].sort(),
    },
    {
      op: 'countLikesBy',
      name: 'by nobody known',
      read: async (s) => [...(await s.countLikesBy(p, [UNKNOWN, MALFORMED])).entries()],
    },
    { op: 'listLikers', name: 'most recent first', read: (s) => s.listLikers(p[4] as string, {}) },
    {
      op: 'listLikers',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listLikers(p[4] as string, { limit: 1, cursor })),
    },
    { op: 'listLikers', name: 'an unknown post has none', read: (s) => s.listLikers(UNKNOWN, { limit: 5 }) },
    { op: 'getComment', name: 'a comment', read: (s) => s.getComment(p[1] as string, f.c1) },
    { op: 'getComment', name: "another post's comment", read: (s) => s.getComment(p[2] as string, f.c1) },
    { op: 'getComment', name: 'malformed ids', read: (s) => s.getComment(MALFORMED, MALFORMED) },
    { op: 'listComments', name: 'oldest first', read: (s) => s.listComments(p[2] as string, {}) },
    {
      op: 'listComments',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listComments(p[2] as string, { limit: 1, cursor })),
    },
    { op: 'listComments', name: 'an unknown post has none', read: (s) => s.listComments(UNKNOWN, {}) },
    ...sorts.map((sort): ReadCase => ({
      op: 'listPosts',
      name: `${sort}, pages of five`,
      read: (s) => everyPage((cursor) => s.listPosts({ sort, limit: 5, cursor })),
    })),
    {
      op: 'listPosts',
      name: 'by authors, without the hidden',
      read: (s) =>
        s.listPosts({ sort: 'latest', authorIds: [u0, u[1], MALFORMED] as string[], hide: [u[1] as string] }),
    },
    { op: 'listPosts', name: 'a home feed', read: (s) => s.listPosts({ sort: 'latest', feedOf: u0 }) },
    {
      op: 'listPosts',
      name: 'the home feed of nobody',
      read: (s) => s.listPosts({ sort: 'trending', feedOf: UNKNOWN }),
    },
    { op: 'listPosts', name: 'a malformed cursor', read: (s) => s.listPosts({ sort: 'latest', cursor: 'e30' }) },
    { op: 'listBookmarks', name: 'newest bookmark first', read: (s) => s.listBookmarks(u0, {}) },
    {
      op: 'listBookmarks',
      name: 'two a page',
      read: (s) => everyPage((cursor) => s.listBookmarks(u0, { limit: 2, cursor })),
    },
    { op: 'listBookmarks', name: 'of nobody', read: (s) => s.listBookmarks(MALFORMED, {}) },
    ...u.map((id, i): ReadCase => ({
      op: 'listLikedPosts',
      name: `liked by user ${i}, newest like first`,
      read: (s) => s.listLikedPosts(id, {}),
    })),
    {
      op: 'listLikedPosts',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listLikedPosts(u[7] as string, { limit: 1, cursor })),
    },
    { op: 'listLikedPosts', name: 'of nobody', read: (s) => s.listLikedPosts(MALFORMED, {}) },
    ...u.map((id, i): ReadCase => ({ op: 'countPosts', name: `posts of user ${i}`, read: (s) => s.countPosts(id) })),
    {
      op: 'countPosts',
      name: 'of nobody',
      read: async (s) => [await s.countPosts(UNKNOWN), await s.countPosts(MALFORMED)],
    },
  ]
}
