import type { CommentRecord, PollRecord, PollVote, PostRecord } from './types.js'

/**
 * The poll votes and replies of the embedded store, whose post records hold them; PostgreSQL keeps the
 * same in tables of its own (pg-polls.ts).
 */

export const repliesIn = (post: PostRecord | undefined, commentId: string): CommentRecord[] =>
  post ? post.comments.filter((comment) => comment.replyTo === commentId) : []

/** The ids of these comments and of every reply under them, at any depth. */
export function subtreesOf(comments: readonly CommentRecord[], tops: readonly CommentRecord[]): Set<string> {
  const ids = new Set(tops.map((comment) => comment._id))
  for (let grew = true; grew;) {
    grew = false
    for (const comment of comments) {
      if (comment.replyTo !== undefined && ids.has(comment.replyTo) && !ids.has(comment._id)) {
        ids.add(comment._id)
        grew = true
      }
    }
  }
  return ids
}

/** The votes of `userIds` in the polls of `posts`. */
export function votesIn(posts: readonly PostRecord[], userIds: readonly string[]): PollVote[] {
  const wanted = new Set(userIds)
  return posts.flatMap((post) => post.poll?.voters?.filter((vote) => wanted.has(vote.userId)) ?? [])
}

/** The poll with the vote counted, or undefined when the user voted already or the choice is not an option. */
export function withVote(poll: PollRecord, vote: PollVote): PollRecord | undefined {
  const voters = poll.voters ?? []
  if (vote.choice >= poll.options.length || voters.some((other) => other.userId === vote.userId)) return undefined
  return {
    ...poll,
    counts: poll.counts.map((count, i) => (i === vote.choice ? count + 1 : count)),
    voters: [...voters, vote],
  }
}

/** The poll without the user's vote, or undefined when they cast none in it. */
export function withoutVote(poll: PollRecord, userId: string): PollRecord | undefined {
  const vote = poll.voters?.find((other) => other.userId === userId)
  if (!vote) return undefined
  return {
    ...poll,
    counts: poll.counts.map((count, i) => (i === vote.choice ? count - 1 : count)),
    voters: (poll.voters ?? []).filter((other) => other !== vote),
  }
}

/** The poll marked noticed closed, or undefined when it is still open at `at` or was noticed already. */
export const noticedClosed = (poll: PollRecord, at: string): PollRecord | undefined =>
  poll.closeNoticed || poll.closesAt > at ? undefined : { ...poll, closeNoticed: true }
