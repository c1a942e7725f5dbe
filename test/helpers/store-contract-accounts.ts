import type { AccountRemoval } from '../../server/store/types.js'
import { usernameKey } from '../../server/usernames.js'
import {
  CARD_IMAGE,
  MALFORMED,
  REPORTED_IMAGE,
  UNKNOWN,
  everyPage,
  type Fixture,
  type ReadCase,
  type WriteCase,
} from './store-contract.js'

/** The reads an account's export and deletion make. */
export function accountReads(f: Fixture): ReadCase[] {
  const { u, at, database } = f
  const name = (i: number) => database.users[i]?.username as string
  return [
    ...[1, 4, 7].map((i): ReadCase => ({
      op: 'listCommentsBy',
      name: `the comments of user ${i}, oldest first`,
      read: (s) => s.listCommentsBy(u[i] as string, {}),
    })),
    {
      op: 'listCommentsBy',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listCommentsBy(u[1] as string, { limit: 1, cursor })),
    },
    { op: 'listCommentsBy', name: 'of nobody', read: (s) => s.listCommentsBy(MALFORMED, {}) },
    ...[1, 7].map((i): ReadCase => ({
      op: 'listLikedPostIds',
      name: `liked by user ${i}, oldest like first`,
      read: (s) => s.listLikedPostIds(u[i] as string, {}),
    })),
    {
      op: 'listLikedPostIds',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listLikedPostIds(u[7] as string, { limit: 1, cursor })),
    },
    { op: 'listLikedPostIds', name: 'of nobody', read: (s) => s.listLikedPostIds(UNKNOWN, {}) },
    {
      op: 'isUsernameReserved',
      name: "a deleted account's name, in another case, while held and after",
      read: async (s) => [
        await s.isUsernameReserved(name(4).toUpperCase(), at(300)),
        await s.isUsernameReserved(name(4), at(24 * 60 * 60)),
        await s.isUsernameReserved('nobody_here', at(300)),
      ],
    },
    {
      op: 'wasDeleted',
      name: 'a deleted account and others',
      read: async (s) => [
        await s.wasDeleted(u[4] as string),
        await s.wasDeleted(u[0] as string),
        await s.wasDeleted(MALFORMED),
      ],
    },
    {
      op: 'isMediaUsed',
      name: "a post's image, an avatar and an unknown file",
      read: async (s) => [
        await s.isMediaUsed(database.posts.find((post) => post.mediaUrl)?.mediaUrl as string),
        await s.isMediaUsed(database.users[0]?.avatarURL as string),
        await s.isMediaUsed('/media/none.png'),
        await s.isMediaUsed(CARD_IMAGE),
        await s.isMediaUsed(REPORTED_IMAGE),
      ],
    },
  ]
}

/** What a deletion answers, its lists in one order: neither store promises one. */
const sorted = (removal: AccountRemoval | undefined) =>
  removal && {
    postIds: [...removal.postIds].sort(),
    unread: [...removal.unread].sort((a, b) => a.recipientId.localeCompare(b.recipientId)),
    openReportSnapshots: removal.openReportSnapshots.map((snapshot) => JSON.stringify(snapshot)).sort(),
    conversations: [...removal.conversations].sort((a, b) => a.conversationId.localeCompare(b.conversationId)),
  }

/** Deleting accounts, last: the reads run after it see what each store left. */
export function accountWrites(f: Fixture): WriteCase[] {
  const { u, at, database } = f
  const reservation = (i: number) => ({
    _id: usernameKey(database.users[i]?.username as string),
    userId: u[i] as string,
    until: at(600),
  })
  return [
    {
      op: 'deleteAccount',
      name: 'someone who posted, liked, reposted, voted, replied and was blocked',
      write: async (tx) => sorted(await tx.deleteAccount(u[4] as string, reservation(4), at(200))),
    },
    {
      op: 'deleteAccount',
      name: 'someone followed, following and bookmarking',
      write: async (tx) => sorted(await tx.deleteAccount(u[1] as string, reservation(1), at(201))),
    },
    {
      op: 'deleteAccount',
      name: 'again',
      write: async (tx) => sorted(await tx.deleteAccount(u[1] as string, reservation(1), at(202))),
    },
    {
      op: 'deleteAccount',
      name: 'nobody',
      write: async (tx) => sorted(await tx.deleteAccount(MALFORMED, reservation(1), at(202))),
    },
  ]
}
