import type { StoreTx } from '../../server/store/types.js'
import { MALFORMED, UNKNOWN, everyPage, type ContractCase, type Fixture, type ReadCase } from './store-contract.js'

/** The reads of follow requests: before any is made, and after the deletions, which take theirs along. */
export function requestReads(f: Fixture): ReadCase[] {
  const { u } = f
  const [, , u2, , , , , u7] = u as [string, string, string, string, string, string, string, string]
  return [
    { op: 'listFollowRequests', name: 'who waits, oldest first', read: (s) => s.listFollowRequests(u2, {}) },
    { op: 'listFollowRequests', name: 'of nobody', read: (s) => s.listFollowRequests(MALFORMED, {}) },
    {
      op: 'requestedAmong',
      name: 'whom one person asked',
      read: (s) => s.requestedAmong(u7, [...u, UNKNOWN, MALFORMED]),
    },
    { op: 'requestedAmong', name: 'by nobody', read: (s) => s.requestedAmong(UNKNOWN, u) },
  ]
}

/**
 * Locking an account, asking to follow it, withdrawing, accepting one and then all, a block between two
 * people ending the request between them; the requests left to and from u[4] go with its deletion, the
 * others stay for the reads after it.
 */
export function requestWrites(f: Fixture): ContractCase[] {
  const { u, at } = f
  const [u0, , u2, , u4, u5, u6, u7] = u as [string, string, string, string, string, string, string, string]
  const ask = (from: string, to: string, minute: number) => (tx: StoreTx) => tx.addFollowRequest(from, to, at(minute))
  return [
    { op: 'updateProfile', name: 'locks the account', write: (tx) => tx.updateProfile(u2, { locked: true }, at(100)) },
    { op: 'updateProfile', name: 'locked again', write: (tx) => tx.updateProfile(u2, { locked: true }, at(100)) },
    { op: 'addFollowRequest', name: 'a request', write: ask(u6, u2, 101) },
    { op: 'addFollowRequest', name: 'again', write: ask(u6, u2, 101) },
    { op: 'addFollowRequest', name: 'another', write: ask(u7, u2, 102) },
    { op: 'addFollowRequest', name: 'a third', write: ask(u0, u2, 103) },
    { op: 'addFollowRequest', name: 'a fourth', write: ask(u5, u2, 104) },
    { op: 'addFollowRequest', name: 'oneself', write: ask(u2, u2, 104) },
    { op: 'addFollowRequest', name: 'by nobody', write: ask(UNKNOWN, u2, 104) },
    { op: 'addFollowRequest', name: 'of nobody', write: ask(u6, MALFORMED, 104) },
    { op: 'addFollowRequest', name: 'of someone followed already', write: ask(u0, u5, 104) },
    {
      op: 'listFollowRequests',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listFollowRequests(u2, { limit: 1, cursor })),
    },
    { op: 'listFollowRequests', name: 'without the hidden', read: (s) => s.listFollowRequests(u2, { hide: [u7] }) },
    {
      op: 'listFollowRequests',
      name: 'a cursor no list made',
      read: (s) => s.listFollowRequests(u2, { limit: 1, cursor: 'bm90IGEgY3Vyc29y' }),
    },
    { op: 'requestedAmong', name: 'while waiting', read: (s) => s.requestedAmong(u6, [u2, u0, UNKNOWN]) },
    { op: 'removeFollowRequest', name: 'withdrawn', write: (tx) => tx.removeFollowRequest(u7, u2) },
    { op: 'removeFollowRequest', name: 'again', write: (tx) => tx.removeFollowRequest(u7, u2) },
    { op: 'removeFollowRequest', name: 'nobody', write: (tx) => tx.removeFollowRequest(MALFORMED, u2) },
    { op: 'acceptFollowRequest', name: 'one accepted', write: (tx) => tx.acceptFollowRequest(u6, u2, at(105)) },
    { op: 'acceptFollowRequest', name: 'again', write: (tx) => tx.acceptFollowRequest(u6, u2, at(106)) },
    { op: 'acceptFollowRequest', name: 'nobody', write: (tx) => tx.acceptFollowRequest(u6, MALFORMED, at(106)) },
    { op: 'block', name: 'ends the request between the two', write: (tx) => tx.block(u2, u0, at(107)) },
    { op: 'unblock', name: 'after ending a request', write: (tx) => tx.unblock(u2, u0) },
    { op: 'addFollowRequest', name: 'asked again', write: ask(u7, u2, 108) },
    { op: 'acceptFollowRequests', name: 'all of them', write: (tx) => tx.acceptFollowRequests(u2, at(109)) },
    { op: 'acceptFollowRequests', name: 'none left', write: (tx) => tx.acceptFollowRequests(u2, at(110)) },
    { op: 'acceptFollowRequests', name: 'of nobody', write: (tx) => tx.acceptFollowRequests(UNKNOWN, at(110)) },
    {
      op: 'updateProfile',
      name: 'unlocks the account',
      write: (tx) => tx.updateProfile(u2, { locked: false }, at(111)),
    },
    { op: 'addFollowRequest', name: 'by someone deleted later', write: ask(u4, u2, 112) },
    { op: 'addFollowRequest', name: 'of someone deleted later', write: ask(u7, u4, 112) },
    { op: 'addFollowRequest', name: 'left waiting', write: ask(u0, u2, 113) },
    { op: 'addFollowRequest', name: 'another left waiting', write: ask(u7, u6, 113) },
  ]
}
