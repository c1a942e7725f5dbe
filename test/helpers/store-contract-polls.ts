import type { PostRecord } from '../../server/store/types.js'
import { MALFORMED, UNKNOWN, type Fixture, type ReadCase, type WriteCase } from './store-contract.js'

/** The reads of polls and of replies to comments. */
export function pollReads(f: Fixture): ReadCase[] {
  const { u, p, c1, fresh } = f
  const p1 = p[1] as string
  return [
    { op: 'listReplies', name: 'the replies to a comment, oldest first', read: (s) => s.listReplies(p1, c1) },
    { op: 'listReplies', name: "another post's comment", read: (s) => s.listReplies(p[2] as string, c1) },
    {
      op: 'listReplies',
      name: 'an unknown post or comment',
      read: async (s) => [await s.listReplies(UNKNOWN, c1), await s.listReplies(p1, MALFORMED)],
    },
    {
      op: 'pollVotesOf',
      name: 'the votes of these people in these polls',
      read: async (s) =>
        (await s.pollVotesOf([fresh.poll, p[0] as string, UNKNOWN, MALFORMED], [...u, UNKNOWN, MALFORMED]))
          .map((vote) => `${vote.postId} ${vote.userId} ${vote.choice}`)
          .sort(),
    },
  ]
}

/** The writes of a poll and its votes, and of a reply to a comment. */
export function pollWrites(f: Fixture): WriteCase[] {
  const { u, p, c1, at, fresh } = f
  const [, u1, u2, , u4] = u as [string, string, string, string, string]
  const p0 = p[0] as string
  const p1 = p[1] as string
  const post: PostRecord = {
    _id: fresh.poll,
    authorId: u2,
    content: 'which one?',
    mediaUrl: '',
    type: '',
    createdAt: at(30),
    updatedAt: at(30),
    likedBy: [],
    dislikedBy: [],
    comments: [],
    likeCount: 0,
    commentCount: 0,
    poll: { options: ['a', 'b', 'c'], closesAt: at(100), counts: [0, 0, 0] },
  }
  const vote = (userId: string, choice: number, postId = fresh.poll) => ({ postId, userId, choice })
  const reply = { _id: fresh.reply, authorId: u4, text: 'an answer', upvotedBy: [], downvotedBy: [] }
  return [
    { op: 'insertPost', name: 'a post with a poll', write: (tx) => tx.insertPost(post) },
    { op: 'addPollVote', name: 'a vote', write: (tx) => tx.addPollVote(vote(u1, 0)) },
    { op: 'addPollVote', name: 'a second vote by the same person', write: (tx) => tx.addPollVote(vote(u1, 1)) },
    { op: 'addPollVote', name: 'another person', write: (tx) => tx.addPollVote(vote(u4, 2)) },
    { op: 'addPollVote', name: 'by nobody', write: (tx) => tx.addPollVote(vote(UNKNOWN, 0)) },
    { op: 'addPollVote', name: 'a post without a poll', write: (tx) => tx.addPollVote(vote(u4, 0, p0)) },
    { op: 'addPollVote', name: 'a post that does not exist', write: (tx) => tx.addPollVote(vote(u4, 0, UNKNOWN)) },
    { op: 'notePollClosed', name: 'before it closes', write: (tx) => tx.notePollClosed(fresh.poll, at(50)) },
    { op: 'notePollClosed', name: 'once closed', write: (tx) => tx.notePollClosed(fresh.poll, at(100)) },
    { op: 'notePollClosed', name: 'noticed already', write: (tx) => tx.notePollClosed(fresh.poll, at(101)) },
    { op: 'notePollClosed', name: 'a post without a poll', write: (tx) => tx.notePollClosed(p0, at(101)) },
    { op: 'notePollClosed', name: 'a malformed id', write: (tx) => tx.notePollClosed(MALFORMED, at(101)) },
    { op: 'removePollVotes', name: "a person's votes", write: (tx) => tx.removePollVotes(u4) },
    { op: 'removePollVotes', name: 'none left', write: (tx) => tx.removePollVotes(u4) },
    { op: 'removePollVotes', name: 'of nobody', write: (tx) => tx.removePollVotes(MALFORMED) },
    {
      op: 'addComment',
      name: 'a reply to a comment',
      write: (tx) => tx.addComment(p1, { ...reply, replyTo: c1, createdAt: at(31), updatedAt: at(31) }),
    },
  ]
}
