import { PRESET_AVATARS } from '../../server/schemas/media.js'
import type { UserRecord } from '../../server/store/types.js'
import type { ProgressBar } from './progress.js'
import {
  WeightedSampler,
  distinctSample,
  longTail,
  pick,
  placeAt,
  seededUuid,
  zipfWeights,
  type Random,
} from './random.js'
import { FIRST_NAMES, LAST_NAMES, sentence } from './words.js'

/** A user while the graph is built: plain arrays that are filled in, frozen into records at the end. */
export interface DraftUser {
  _id: string
  username: string
  firstName: string
  lastName: string
  createdAt: string
  bio: string
  following: string[]
  followers: string[]
  bookmarks: string[]
}

/** Every generated account's password; `guest` keeps the demo password. */
export const BENCH_PASSWORD = 'chirp-bench-password'

/** An account the benchmark logs into. */
interface NamedAccount {
  username: string
  /** How many accounts it follows. */
  follows: number
  /**
   * Follows accounts that post often (see POSTER_RANKS) rather than drawing them by how many follow each:
   * a home feed of few people that still fills its pages at a small data set's size.
   */
  followsPosters?: boolean
  /**
   * Its place among everyone by how many follow it and how much it posts (0 the first); where absent, the
   * draw decides, as for the generated accounts.
   */
  rank?: number
}

export const NAMED_ACCOUNTS: readonly NamedAccount[] = [
  { username: 'guest', follows: 40 },
  { username: 'bench_many', follows: 1000 },
  { username: 'bench_typical', follows: 100 },
  { username: 'bench_few', follows: 10, followsPosters: true },
  { username: 'bench_writer', follows: 50 },
  // A popular account: its posts draw likes, comments and mentions, so it has pages of notifications.
  { username: 'bench_popular', follows: 100, rank: 10 },
]

/** Zipf weights over everyone, with each named account that has a rank put in that place. */
function rankedWeights(random: Random, count: number, exponent: number): number[] {
  const weights = zipfWeights(random, count, exponent)
  NAMED_ACCOUNTS.forEach((named, i) => {
    if (named.rank !== undefined) placeAt(weights, i, named.rank)
  })
  return weights
}

export interface People {
  users: DraftUser[]
  /** Who gets followed: a power law, so a few accounts are followed by very many. */
  popularity: WeightedSampler
  /** Who writes the posts: a power law of its own, so a few accounts post a lot. */
  activity: WeightedSampler
}

/**
 * The places by how much they post (0 the most) of the accounts a `followsPosters` account follows: the
 * 50th, 60th and so on, busy but not the busiest. With the default seed, 10,000 posts give the first ten
 * 78 of them among 20,000 people and 149 among 2,000: full pages of a home feed at every size.
 */
const POSTER_RANKS = { first: 50, step: 10 }

/** `wanted` accounts by their place in `weights` (heaviest first) from POSTER_RANKS on, never `exclude`. */
function posters(weights: readonly number[], wanted: number, exclude: number): number[] {
  const byWeight = weights.map((_, i) => i).sort((a, b) => (weights[b] as number) - (weights[a] as number))
  const chosen: number[] = []
  for (let rank = POSTER_RANKS.first; chosen.length < wanted && rank < byWeight.length; rank += POSTER_RANKS.step) {
    const index = byWeight[rank] as number
    if (index !== exclude) chosen.push(index)
  }
  return chosen
}

const DAY = 86_400_000

export function generatePeople(random: Random, count: number, now: number, progress: ProgressBar): People {
  progress.start('users', count)
  const users: DraftUser[] = []
  for (let i = 0; i < count; i++) {
    const named = NAMED_ACCOUNTS[i]
    const firstName = pick(random, FIRST_NAMES)
    const lastName = pick(random, LAST_NAMES)
    const username = named?.username ?? `${firstName}_${lastName}_${i}`.toLowerCase().slice(0, 30)
    users.push({
      _id: seededUuid(random),
      username,
      firstName,
      lastName,
      // Oldest first, over the last two years, the way accounts really accumulate.
      createdAt: new Date(now - 730 * DAY + Math.floor((i / count) * 640 * DAY)).toISOString(),
      bio: random() < 0.7 ? sentence(random, 4, 14).slice(0, 160) : '',
      following: [],
      followers: [],
      bookmarks: [],
    })
    progress.tick()
  }
  progress.finish()

  const popularity = new WeightedSampler(rankedWeights(random, count, 1.1))
  const activityWeights = rankedWeights(random, count, 0.8)
  progress.start('follows', count)
  users.forEach((user, i) => {
    const named = NAMED_ACCOUNTS[i]
    // Most people follow a few dozen accounts; some follow thousands.
    const wanted = named?.follows ?? Math.min(3000, longTail(random, 40))
    const followed = named?.followsPosters
      ? posters(activityWeights, wanted, i)
      : distinctSample(random, popularity, count, wanted, i)
    for (const j of followed) {
      const other = users[j] as DraftUser
      user.following.push(other._id)
      other.followers.push(user._id)
    }
    progress.tick()
  })
  progress.finish()
  return { users, popularity, activity: new WeightedSampler(activityWeights) }
}

export function toUserRecord(user: DraftUser, passwordHash: string, index: number): UserRecord {
  return {
    _id: user._id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: `${user.username}@example.com`,
    passwordHash,
    avatarURL: PRESET_AVATARS[index % PRESET_AVATARS.length] as string,
    bio: user.bio,
    website: index % 5 === 0 ? `https://${user.username.replace(/[._]/g, '-')}.example.com` : '',
    createdAt: user.createdAt,
    updatedAt: user.createdAt,
    bookmarks: user.bookmarks,
    following: user.following,
    followers: user.followers,
    tokenVersion: 0,
  }
}
