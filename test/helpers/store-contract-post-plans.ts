import type { PostVersionRecord, ScheduledPostRecord } from '../../server/store/types.js'
import { MALFORMED, UNKNOWN, type ContractCase, type Fixture, type ReadCase } from './store-contract.js'

const SCHEDULED = '40000000-0000-4000-8000-000000000001'
const LATER = '40000000-0000-4000-8000-000000000002'
const OTHERS = '40000000-0000-4000-8000-000000000003'

/** The reads of posts' earlier versions and scheduled posts: before any is kept, and after the writes and a deletion. */
export function postPlanReads(f: Fixture): ReadCase[] {
  const [u0, , , , u4] = f.u as [string, string, string, string, string]
  const [, , p2, , p4] = f.p as [string, string, string, string, string]
  return [
    { op: 'listPostVersions', name: "a post's versions", read: (s) => s.listPostVersions(p2) },
    { op: 'listPostVersions', name: 'of a post deleted with its author', read: (s) => s.listPostVersions(p4) },
    { op: 'listPostVersions', name: 'of no post', read: (s) => s.listPostVersions(MALFORMED) },
    { op: 'listScheduledPosts', name: "someone's scheduled posts", read: (s) => s.listScheduledPosts(u0) },
    { op: 'listScheduledPosts', name: 'of someone deleted later', read: (s) => s.listScheduledPosts(u4) },
    { op: 'listScheduledPosts', name: 'of nobody', read: (s) => s.listScheduledPosts(UNKNOWN) },
    { op: 'getScheduledPost', name: 'one', read: (s) => s.getScheduledPost(u0, SCHEDULED) },
    { op: 'getScheduledPost', name: "someone else's", read: (s) => s.getScheduledPost(u4, SCHEDULED) },
    { op: 'getScheduledPost', name: 'malformed', read: (s) => s.getScheduledPost(u0, MALFORMED) },
  ]
}

/** Versions kept, scheduled posts kept, moved, taken and removed; u[4]'s and p[4]'s stay for u[4]'s deletion to take. */
export function postPlanWrites(f: Fixture): ContractCase[] {
  const { at } = f
  const [u0, u1, , , u4] = f.u as [string, string, string, string, string]
  const [, , p2, , p4] = f.p as [string, string, string, string, string]
  const version = (content: string, minute: number): PostVersionRecord => ({
    content,
    media: [{ url: '/media/a.png', alt: 'a cat', width: 4, height: 3 }, { url: 'https://example.com/b.jpg' }],
    editedAt: at(minute),
  })
  const scheduled = (id: string, userId: string, minute: number): ScheduledPostRecord => ({
    _id: id,
    userId,
    scheduledAt: at(minute),
    postData: {
      content: 'later',
      media: [{ url: '/media/a.png', alt: 'a cat' }],
      poll: { options: ['a', 'b'], days: 1 },
    },
    createdAt: at(90),
  })
  return [
    { op: 'addPostVersion', name: 'the first', write: (tx) => tx.addPostVersion(p2, version('first', 1)) },
    {
      op: 'addPostVersion',
      name: 'a second, with a warning and a poll',
      write: (tx) =>
        tx.addPostVersion(p2, { ...version('second', 2), media: [], spoilerText: 'cw', pollOptions: ['x', 'y'] }),
    },
    { op: 'addPostVersion', name: 'of a post deleted later', write: (tx) => tx.addPostVersion(p4, version('p4', 3)) },
    { op: 'addPostVersion', name: 'of no post', write: (tx) => tx.addPostVersion(UNKNOWN, version('x', 3)) },
    { op: 'addPostVersion', name: 'of a malformed id', write: (tx) => tx.addPostVersion(MALFORMED, version('x', 3)) },
    { op: 'listPostVersions', name: 'staged in the transaction', read: (s) => s.listPostVersions(p2) },
    { op: 'putScheduledPost', name: 'one', write: (tx) => tx.putScheduledPost(scheduled(SCHEDULED, u0, 300)) },
    { op: 'putScheduledPost', name: 'a sooner one', write: (tx) => tx.putScheduledPost(scheduled(LATER, u0, 250)) },
    { op: 'putScheduledPost', name: 'moved', write: (tx) => tx.putScheduledPost(scheduled(LATER, u0, 400)) },
    { op: 'putScheduledPost', name: 'for nobody', write: (tx) => tx.putScheduledPost(scheduled(OTHERS, UNKNOWN, 1)) },
    {
      op: 'putScheduledPost',
      name: 'of someone deleted later',
      write: (tx) => tx.putScheduledPost(scheduled(OTHERS, u4, 1)),
    },
    { op: 'listScheduledPosts', name: 'staged in the transaction', read: (s) => s.listScheduledPosts(u0) },
    { op: 'takeScheduledPost', name: 'not yet due', write: (tx) => tx.takeScheduledPost(u0, SCHEDULED, at(299)) },
    { op: 'takeScheduledPost', name: "someone else's", write: (tx) => tx.takeScheduledPost(u1, SCHEDULED, at(500)) },
    {
      op: 'takeScheduledPost',
      name: 'due, then gone',
      write: async (tx) => [
        await tx.takeScheduledPost(u0, SCHEDULED, at(300)),
        await tx.takeScheduledPost(u0, SCHEDULED, at(300)),
      ],
    },
    { op: 'takeScheduledPost', name: 'malformed', write: (tx) => tx.takeScheduledPost(u0, MALFORMED, at(500)) },
    { op: 'putScheduledPost', name: 'again', write: (tx) => tx.putScheduledPost(scheduled(SCHEDULED, u0, 300)) },
    { op: 'removeScheduledPost', name: "someone else's", write: (tx) => tx.removeScheduledPost(u1, LATER) },
    { op: 'removeScheduledPost', name: 'one', write: (tx) => tx.removeScheduledPost(u0, LATER) },
    { op: 'removeScheduledPost', name: 'gone', write: (tx) => tx.removeScheduledPost(u0, LATER) },
    { op: 'removeScheduledPost', name: 'malformed', write: (tx) => tx.removeScheduledPost(MALFORMED, LATER) },
  ]
}
