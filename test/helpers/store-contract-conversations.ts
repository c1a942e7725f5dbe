import type { PostRecord } from '../../server/store/types.js'
import { postRecord } from './records.js'
import { MALFORMED, UNKNOWN, everyPage, type Fixture, type ReadCase, type WriteCase } from './store-contract.js'

/** A direct post of the contract's conversations: `to` are its recipients. */
function directPost(f: Fixture, _id: string, authorId: string, to: string[], conversationId: string, minute: number) {
  const at = f.at(minute)
  const post: PostRecord = {
    ...postRecord(minute, authorId),
    _id,
    createdAt: at,
    updatedAt: at,
    visibility: 'direct',
    addressed: to,
    conversationId,
  }
  return post
}

/**
 * The reads of conversations of direct posts, as each participant sees them: before the writes (none
 * yet), and after them (a reply, a read, a hiding, a deleted post and a deleted participant later).
 */
export function conversationReads(f: Fixture): ReadCase[] {
  const { u, fresh } = f
  const [u0, u1, u2, u3] = u as [string, string, string, string]
  const { conversation, pair } = fresh
  return [
    {
      op: 'getConversation',
      name: 'as each participant sees it, and nobody else',
      read: async (s) => [
        await s.getConversation(conversation, u0),
        await s.getConversation(conversation, u1),
        await s.getConversation(conversation, u2),
        await s.getConversation(conversation, u3),
      ],
    },
    {
      op: 'getConversation',
      name: "without a hidden person's posts",
      read: async (s) => [await s.getConversation(conversation, u0, [u1]), await s.getConversation(pair, u0, [u3])],
    },
    {
      op: 'getConversation',
      name: 'unknown and malformed',
      read: async (s) => [
        await s.getConversation(UNKNOWN, u0),
        await s.getConversation(MALFORMED, u0),
        await s.getConversation(conversation, MALFORMED),
      ],
    },
    {
      op: 'listConversations',
      name: 'each person’s, the most recently active first',
      read: async (s) => [
        await s.listConversations(u0, {}),
        await s.listConversations(u1, {}),
        await s.listConversations(u2, {}),
        await s.listConversations(u3, {}),
      ],
    },
    {
      op: 'listConversations',
      name: 'one a page',
      read: (s) => everyPage((cursor) => s.listConversations(u0, { limit: 1, cursor })),
    },
    {
      op: 'listConversations',
      name: "without a hidden person's posts",
      read: (s) => s.listConversations(u0, { hide: [u3] }),
    },
    { op: 'listConversations', name: 'of nobody', read: (s) => s.listConversations(MALFORMED, {}) },
    {
      op: 'listConversations',
      name: 'a forged cursor',
      read: (s) => s.listConversations(u0, { cursor: 'bm9wZQ' }),
    },
    {
      op: 'listConversationPosts',
      name: 'what each may read, newest first',
      read: async (s) => [
        await s.listConversationPosts(conversation, u0, {}),
        await s.listConversationPosts(conversation, u2, {}),
        await s.listConversationPosts(conversation, u3, {}),
      ],
    },
    {
      op: 'listConversationPosts',
      name: 'one a page, and without the hidden',
      read: async (s) => [
        await everyPage((cursor) => s.listConversationPosts(conversation, u0, { limit: 1, cursor })),
        await s.listConversationPosts(conversation, u0, { hide: [u1] }),
      ],
    },
    {
      op: 'listConversationPosts',
      name: 'unknown and malformed',
      read: async (s) => [
        await s.listConversationPosts(UNKNOWN, u0, {}),
        await s.listConversationPosts(MALFORMED, MALFORMED, {}),
      ],
    },
    {
      op: 'listConversationPosts',
      name: 'a forged cursor, where there is nothing to read',
      read: (s) => s.listConversationPosts(UNKNOWN, u0, { cursor: 'bm9wZQ' }),
    },
    {
      op: 'countUnreadConversations',
      name: "each person's, and without a hidden person's posts",
      read: async (s) => [
        await s.countUnreadConversations(u0),
        await s.countUnreadConversations(u1),
        await s.countUnreadConversations(u2),
        await s.countUnreadConversations(u0, [u3]),
        await s.countUnreadConversations(MALFORMED),
      ],
    },
  ]
}

/** The writes of conversations: opening, delivering, reading, hiding; a deleted post goes from them. */
export function conversationWrites(f: Fixture): WriteCase[] {
  const { u, at, fresh } = f
  const [u0, u1, u2, u3] = u as [string, string, string, string]
  const { conversation, pair, direct, answer, aside } = fresh
  const open = (people: string[], id: string, minute: number) => (tx: Parameters<WriteCase['write']>[0]) =>
    tx.openConversation(people, id, at(minute))
  return [
    { op: 'openConversation', name: 'a new set of people', write: open([u0, u1, u2], conversation, 60) },
    { op: 'openConversation', name: 'the same people, in another order', write: open([u2, u1, u0, u1], pair, 61) },
    {
      op: 'openConversation',
      name: 'nobody, someone unknown or malformed',
      write: async (tx) => [
        await open([], pair, 61)(tx),
        await open([u0, UNKNOWN], pair, 61)(tx),
        await open([u0, MALFORMED], pair, 61)(tx),
      ],
    },
    {
      op: 'insertPost',
      name: 'a direct post',
      write: (tx) => tx.insertPost(directPost(f, direct, u0, [u1, u2], conversation, 62)),
    },
    {
      op: 'deliverDirectPost',
      name: 'to its recipients, one not in the conversation and the author named too',
      write: (tx) => tx.deliverDirectPost(conversation, direct, u0, [u1, u2, u3, u0, u1], at(62)),
    },
    {
      op: 'deliverDirectPost',
      name: 'by someone not in it, of no post, malformed',
      write: async (tx) => [
        await tx.deliverDirectPost(conversation, direct, u3, [u1], at(63)),
        await tx.deliverDirectPost(conversation, UNKNOWN, u0, [u1], at(63)),
        await tx.deliverDirectPost(MALFORMED, direct, u0, [u1], at(63)),
      ],
    },
    { op: 'openConversation', name: 'another pair', write: open([u3, u0], pair, 64) },
    {
      op: 'insertPost',
      name: 'a direct post between the pair',
      write: (tx) => tx.insertPost(directPost(f, aside, u3, [u0], pair, 65)),
    },
    {
      op: 'deliverDirectPost',
      name: 'between the pair',
      write: (tx) => tx.deliverDirectPost(pair, aside, u3, [u0], at(65)),
    },
    {
      op: 'insertPost',
      name: 'an answer to some of the conversation',
      write: (tx) => tx.insertPost({ ...directPost(f, answer, u1, [u0], conversation, 66), inReplyTo: direct }),
    },
    {
      op: 'deliverDirectPost',
      name: 'the answer',
      write: (tx) => tx.deliverDirectPost(conversation, answer, u1, [u0], at(66)),
    },
    {
      op: 'markConversationRead',
      name: 'by a participant, by someone else, unknown',
      write: async (tx) => [
        await tx.markConversationRead(conversation, u2),
        await tx.markConversationRead(conversation, u3),
        await tx.markConversationRead(UNKNOWN, u2),
        await tx.markConversationRead(MALFORMED, MALFORMED),
      ],
    },
    {
      op: 'hideConversation',
      name: 'by a participant, by someone else, unknown',
      write: async (tx) => [
        await tx.hideConversation(pair, u0),
        await tx.hideConversation(conversation, u1),
        await tx.hideConversation(pair, u1),
        await tx.hideConversation(UNKNOWN, u0),
      ],
    },
    {
      op: 'getConversation',
      name: 'read and hidden, inside the transaction that did it',
      write: async (tx) => {
        await tx.markConversationRead(conversation, u0)
        return [await tx.getConversation(conversation, u0), await tx.countUnreadConversations(u0)]
      },
    },
    {
      op: 'deliverDirectPost',
      name: 'shows a hidden conversation again',
      write: async (tx) => {
        await tx.insertPost(directPost(f, fresh.again, u2, [u0, u1], conversation, 67))
        return [
          await tx.deliverDirectPost(conversation, fresh.again, u2, [u0, u1], at(67)),
          await tx.getConversation(conversation, u1),
        ]
      },
    },
    { op: 'deletePost', name: 'an unread direct post', write: (tx) => tx.deletePost(direct) },
  ]
}
