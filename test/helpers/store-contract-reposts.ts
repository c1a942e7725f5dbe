import { MALFORMED, UNKNOWN, everyPage, type Fixture, type ReadCase, type WriteCase } from './store-contract.js'

/** The reads of reposts and pins. */
export function repostReads(f: Fixture): ReadCase[] {
  const { u, p } = f
  const [u0, u1, , u3] = u as [string, string, string, string]
  return [
    {
      op: 'repostedAmong',
      name: 'which of these the user reposts',
      read: (s) => s.repostedAmong(u1, [...p, UNKNOWN, MALFORMED]),
    },
    { op: 'repostedAmong', name: 'an unknown user reposts none', read: (s) => s.repostedAmong(UNKNOWN, p) },
    {
      op: 'listFeedReposts',
      name: 'a home feed, newest first',
      read: (s) => s.listFeedReposts(u0, { sort: 'latest' }),
    },
    { op: 'listFeedReposts', name: 'oldest first', read: (s) => s.listFeedReposts(u0, { sort: 'oldest' }) },
    {
      op: 'listFeedReposts',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listFeedReposts(u0, { sort: 'latest', limit: 1, cursor })),
    },
    {
      op: 'listFeedReposts',
      name: 'without the hidden',
      read: (s) => s.listFeedReposts(u0, { sort: 'latest', hide: [u1] }),
    },
    { op: 'listFeedReposts', name: 'of nobody', read: (s) => s.listFeedReposts(MALFORMED, { sort: 'latest' }) },
    {
      op: 'listReposters',
      name: "every post's, most recent first",
      read: (s) => Promise.all(p.map((id) => s.listReposters(id, {}))),
    },
    {
      op: 'listReposters',
      name: 'one a page',
      read: (s) => Promise.all(p.map((id) => everyPage((cursor) => s.listReposters(id, { limit: 1, cursor })))),
    },
    {
      op: 'listReposters',
      name: 'without the hidden',
      read: (s) => Promise.all(p.map((id) => s.listReposters(id, { hide: [u1] }))),
    },
    { op: 'listReposters', name: 'an unknown post has none', read: (s) => s.listReposters(UNKNOWN, { limit: 5 }) },
    { op: 'listReposters', name: 'a malformed id has none', read: (s) => s.listReposters(MALFORMED, {}) },
    { op: 'listPinned', name: 'most recently pinned first', read: (s) => s.listPinned(u3) },
    { op: 'listPinned', name: 'of nobody', read: (s) => s.listPinned(UNKNOWN) },
  ]
}

/** The writes of reposts and pins. */
export function repostWrites(f: Fixture): WriteCase[] {
  const { u, p, at } = f
  const [, u1, , , , u5] = u as [string, string, string, string, string, string]
  const post = (i: number) => p[i] as string
  return [
    { op: 'setRepost', name: 'a repost', write: (tx) => tx.setRepost(post(2), u1, true, at(40)) },
    { op: 'setRepost', name: 'again', write: (tx) => tx.setRepost(post(2), u1, true, at(41)) },
    { op: 'setRepost', name: 'by someone else, later', write: (tx) => tx.setRepost(post(2), u5, true, at(42)) },
    { op: 'setRepost', name: "of a followed author's post", write: (tx) => tx.setRepost(post(5), u1, true, at(43)) },
    { op: 'setRepost', name: 'of another post', write: (tx) => tx.setRepost(post(6), u5, true, at(44)) },
    { op: 'setRepost', name: 'by nobody', write: (tx) => tx.setRepost(post(2), UNKNOWN, true, at(45)) },
    { op: 'setRepost', name: 'of no post', write: (tx) => tx.setRepost(UNKNOWN, u1, true, at(45)) },
    { op: 'setRepost', name: 'taken back', write: (tx) => tx.setRepost(post(6), u5, false, at(46)) },
    { op: 'setRepost', name: 'taken back again', write: (tx) => tx.setRepost(post(6), u5, false, at(46)) },
    { op: 'setRepost', name: 'a malformed id', write: (tx) => tx.setRepost(MALFORMED, u1, false, at(46)) },
    { op: 'setPinned', name: 'a pin', write: (tx) => tx.setPinned(post(3), at(47)) },
    { op: 'setPinned', name: 'another', write: (tx) => tx.setPinned(post(11), at(48)) },
    { op: 'setPinned', name: 'an unpin', write: (tx) => tx.setPinned(post(3), null) },
    { op: 'setPinned', name: 'no post', write: (tx) => tx.setPinned(UNKNOWN, at(49)) },
  ]
}
