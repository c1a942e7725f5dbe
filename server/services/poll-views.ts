import type { Poll, PollData } from '../schemas/posts.js'
import type { PollRecord, PollVote } from '../store/types.js'

/**
 * Polls as a reader sees them (DECISIONS §11): whether a poll is closed is worked out from `closesAt`
 * whenever it is read, so it closes on every instance at once with no process awake at that moment.
 * Counts show only to a reader who voted, or once the poll closed; suspended voters do not count.
 */

/** A new poll's record: its options, and its close after `days` poll days from `at`. */
export function newPoll(data: PollData, at: Date, daySeconds: number): PollRecord {
  return {
    options: data.options,
    closesAt: new Date(at.getTime() + data.days * daySeconds * 1000).toISOString(),
    counts: data.options.map(() => 0),
  }
}

export const isClosed = (poll: PollRecord, at: Date) => poll.closesAt <= at.toISOString()

/**
 * The poll as one reader sees it at `at`: `voted` is their choice, and `uncounted` holds the choices of
 * the suspended voters, left out of the counts.
 */
function pollView(poll: PollRecord, at: Date, voted: number | null, uncounted: readonly number[]): Poll {
  const closed = isClosed(poll, at)
  const shown = closed || voted !== null
  const counts = poll.counts.map((count, i) => Math.max(0, count - uncounted.filter((choice) => choice === i).length))
  return {
    options: poll.options.map((text, i) => ({ text, votes: shown ? (counts[i] ?? 0) : null })),
    votes: shown ? counts.reduce((sum, count) => sum + count, 0) : null,
    closesAt: poll.closesAt,
    closed,
    voted,
  }
}

/** The poll views of several posts for one reader, from the votes of the reader and of suspended people. */
export function pollViewsFor(
  polls: readonly { postId: string; poll: PollRecord }[],
  votes: readonly PollVote[],
  readerId: string | undefined,
  at: Date,
): Map<string, Poll> {
  const views = new Map<string, Poll>()
  for (const { postId, poll } of polls) {
    const mine = votes.find((vote) => vote.postId === postId && vote.userId === readerId)
    const uncounted = votes.filter((vote) => vote.postId === postId && vote.userId !== readerId)
    views.set(
      postId,
      pollView(
        poll,
        at,
        mine?.choice ?? null,
        uncounted.map((vote) => vote.choice),
      ),
    )
  }
  return views
}
