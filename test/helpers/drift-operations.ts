import type { InjectOptions } from 'fastify'
import { VISIBILITIES } from '../../common/audience.js'
import { textOf, type Random, type Side } from './drift.js'

/**
 * The operations of a differential run: every write the API offers and the reads that show what they
 * did. Each is chosen once from the seed, as indices into what the run has made, and then becomes a
 * request on each side with that side's own ids.
 */
export interface Step {
  /** Said in a failure, with the seed. */
  label: string
  actor: number | undefined
  request: (side: Side) => InjectOptions
  /** Takes note of what a successful write made, by reading its answer. */
  made?: (side: Side, body: unknown) => void
}

const ACTORS = 4
const post = (side: Side, i: number) => side.posts[i] ?? '00000000-0000-4000-8000-000000000000'
const user = (side: Side, i: number) => side.users[i] ?? '00000000-0000-4000-8000-000000000000'
const idOf = (body: unknown) => (body as { post?: { _id?: string } } | null)?.post?._id

/** A write of one of these kinds by `actor` on `target` commutes with one by another actor on another target. */
const PAIRED = ['like', 'bookmark', 'follow', 'repost'] as const

function paired(kind: (typeof PAIRED)[number], actor: number, target: number): Step {
  const urls = {
    like: (side: Side) => `/api/posts/like/${post(side, target)}`,
    bookmark: (side: Side) => `/api/users/bookmark/${post(side, target)}`,
    follow: (side: Side) => `/api/users/follow/${user(side, target)}`,
    repost: (side: Side) => `/api/posts/repost/${post(side, target)}`,
  }
  return {
    label: `${kind} ${target} by ${actor}`,
    actor,
    request: (side) => ({ method: 'POST', url: urls[kind](side) }),
  }
}

/** Two writes at once, by two actors on two targets, none of the four the same: their answers cannot depend on their order. */
export function pairOf(random: Random, posts: number): [Step, Step] {
  const a = random.int(ACTORS)
  const b = (a + 1 + random.int(ACTORS - 1)) % ACTORS
  // With fewer than two posts, two writes on posts would share one.
  const kind = posts < 2 ? 'follow' : random.pick(PAIRED)
  if (kind === 'follow') {
    const [c = 0, d = 0] = [0, 1, 2, 3].filter((i) => i !== a && i !== b)
    return [paired(kind, a, c), paired(kind, b, d)]
  }
  const targets = Math.max(posts, 1)
  const first = random.int(targets)
  const second = targets > 1 ? (first + 1 + random.int(targets - 1)) % targets : first
  return [paired(kind, a, first), paired(kind, b, second)]
}

/** The lists a reader pages through, each with its query beyond limit and cursor. */
const LISTS = {
  feed: () => '/api/feed?',
  trending: () => '/api/feed?sort=trending&',
  explore: () => '/api/posts?',
  bookmarks: () => '/api/users/bookmark?',
  likes: (side: Side, i: number) => `/api/users/${usernameOf(side, i % ACTORS)}/likes?`,
  profile: (side: Side, i: number) => `/api/posts/user/${usernameOf(side, i % ACTORS)}?`,
  notifications: () => '/api/notifications?',
  blocks: () => '/api/users/blocks?',
  mutes: () => '/api/users/mutes?',
  requests: () => '/api/follow-requests?',
  comments: (side: Side, i: number) => `/api/comments/${post(side, i)}?`,
  likers: (side: Side, i: number) => `/api/posts/${post(side, i)}/likes?`,
  search: () => '/api/search?q=hello&type=posts&',
  tag: () => '/api/posts/tag/drift?',
  media: (side: Side, i: number) => `/api/posts/user/${usernameOf(side, i % ACTORS)}?filter=media&`,
}

/** The lists anyone may read without signing in. */
const OPEN_LISTS: ReadonlySet<keyof typeof LISTS> = new Set([
  'explore',
  'likes',
  'profile',
  'comments',
  'likers',
  'search',
  'tag',
  'media',
])

/** The actors' usernames, the same on both sides. */
export const DRIFT_NAMES = ['drift_a', 'drift_b', 'drift_c', 'drift_d']
const usernameOf = (_side: Side | undefined, i: number) => DRIFT_NAMES[i] ?? 'nobody'

function page(random: Random, posts: number): Step {
  const list = random.pick(Object.keys(LISTS) as (keyof typeof LISTS)[])
  // Read by each actor, whom each post's audience lets see different posts, or by someone not signed in.
  const actor = OPEN_LISTS.has(list) && random.chance(0.15) ? undefined : random.int(ACTORS)
  const of = random.int(Math.max(posts, ACTORS))
  const key = `${actor} ${list} ${of}`
  const restart = random.chance(0.3)
  const forged = random.chance(0.03)
  // Notifications one request makes share a moment, and stand in either order on the two stores (their
  // ids break the tie, and ids differ): a page boundary between them would differ, so they come whole.
  const limit = list === 'notifications' ? 50 : 1 + random.int(3)
  return {
    label: `page of ${list} ${of} for ${actor ?? 'someone not signed in'}${restart ? ' from the start' : ''}${forged ? ', a forged cursor' : ''}`,
    actor,
    request: (side) => {
      const cursor = forged ? 'WyIwMDAwLTAxLTAxVDAwOjAwOjAwLjAwMFoiXQ' : restart ? undefined : side.cursors.get(key)
      return { method: 'GET', url: `${LISTS[list](side, of)}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}` }
    },
    made: (side, body) => {
      const next = (body as { nextCursor?: string | null }).nextCursor
      if (next) side.cursors.set(key, next)
      else side.cursors.delete(key)
    },
  }
}

/** One step, from the seed: a write of any kind, a read, or a page of a list. */
export function stepOf(random: Random, posts: number, comments: number): Step {
  const actor = random.int(ACTORS)
  const p = random.int(Math.max(posts, 1))
  const other = random.int(ACTORS)
  const c = random.int(Math.max(comments, 1))
  const comment = (side: Side) => side.comments[c] ?? { post: p, id: '00000000-0000-4000-8000-000000000000' }
  const onComment = (side: Side, verb: string) => {
    const { post: of, id } = comment(side)
    return `/api/comments/${verb}/${post(side, of)}/${id}`
  }
  const madePost = (side: Side, body: unknown) => {
    const id = idOf(body)
    if (id) side.posts.push(id)
  }
  const madeComment = (side: Side, body: unknown) => {
    const comments = (body as { post?: { comments?: { _id: string }[] } }).post?.comments ?? []
    const id = comments[comments.length - 1]?._id
    if (id) side.comments.push({ post: p, id })
  }
  const write = (label: string, method: 'POST' | 'DELETE', url: (side: Side) => string, payload?: object) => ({
    label,
    actor,
    request: (side: Side): InjectOptions => ({ method, url: url(side), ...(payload ? { payload } : {}) }),
  })
  // Posts of every audience, some naming another actor (whom a followers or direct post then reaches).
  const newPost = (): Step => ({
    ...write(`post by ${actor}`, 'POST', () => '/api/posts', {
      content: (random.chance(0.3) ? `@${usernameOf(undefined, other)} ` : '') + textOf(random),
      ...(random.chance(0.6) ? { visibility: random.pick(VISIBILITIES) } : {}),
      ...(random.chance(0.2) ? { spoilerText: textOf(random, 100) } : {}),
      ...(random.chance(0.15) ? { poll: { options: [textOf(random, 50), textOf(random, 50)], days: 1 } } : {}),
    }),
    made: madePost,
  })
  const steps: (() => Step)[] = [
    newPost,
    newPost,
    newPost,
    newPost,
    () => {
      const quote = { content: textOf(random) }
      return {
        label: `quote of ${p} by ${actor}`,
        actor,
        request: (side) => ({ method: 'POST', url: '/api/posts', payload: { ...quote, quoteOf: post(side, p) } }),
        made: madePost,
      }
    },
    () => {
      const content = textOf(random)
      return {
        label: `edit of ${p} by ${actor}`,
        actor,
        request: (side) => ({ method: 'POST', url: `/api/posts/edit/${post(side, p)}`, payload: { content } }),
      }
    },
    () => write(`delete of ${p} by ${actor}`, 'DELETE', (side) => `/api/posts/${post(side, p)}`),
    () => paired('like', actor, p),
    () => write(`unlike of ${p} by ${actor}`, 'POST', (side) => `/api/posts/dislike/${post(side, p)}`),
    () => paired('repost', actor, p),
    () => write(`unrepost of ${p} by ${actor}`, 'POST', (side) => `/api/posts/unrepost/${post(side, p)}`),
    () => write(`pin of ${p} by ${actor}`, 'POST', (side) => `/api/posts/pin/${post(side, p)}`),
    () => write(`unpin of ${p} by ${actor}`, 'POST', (side) => `/api/posts/unpin/${post(side, p)}`),
    () => paired('bookmark', actor, p),
    () => write(`unbookmark of ${p} by ${actor}`, 'POST', (side) => `/api/users/remove-bookmark/${post(side, p)}`),
    () => {
      const text = textOf(random)
      const reply = random.chance(0.3)
      return {
        label: `comment on ${p} by ${actor}${reply ? ' replying' : ''}`,
        actor,
        request: (side) => ({
          method: 'POST',
          url: `/api/comments/add/${post(side, p)}`,
          payload: { text, ...(reply && side.comments[c] ? { replyTo: side.comments[c]?.id } : {}) },
        }),
        made: madeComment,
      }
    },
    () =>
      write(`edit of comment ${c} by ${actor}`, 'POST', (side) => onComment(side, 'edit'), { text: textOf(random) }),
    () => write(`delete of comment ${c} by ${actor}`, 'DELETE', (side) => onComment(side, 'delete')),
    () => write(`upvote of comment ${c} by ${actor}`, 'POST', (side) => onComment(side, 'upvote')),
    () => write(`downvote of comment ${c} by ${actor}`, 'POST', (side) => onComment(side, 'downvote')),
    () =>
      write(`vote on ${p} by ${actor}`, 'POST', (side) => `/api/polls/${post(side, p)}/vote`, {
        choice: random.int(3),
      }),
    () => paired('follow', actor, other),
    () => write(`unfollow of ${other} by ${actor}`, 'POST', (side) => `/api/users/unfollow/${user(side, other)}`),
    () => write(`block of ${other} by ${actor}`, 'POST', (side) => `/api/users/block/${user(side, other)}`),
    () => write(`unblock of ${other} by ${actor}`, 'POST', (side) => `/api/users/unblock/${user(side, other)}`),
    () =>
      write(`mute of ${other} by ${actor}`, 'POST', (side) => `/api/users/mute/${user(side, other)}`, {
        ...(random.chance(0.5) ? { duration: 1 + random.int(8) } : {}),
      }),
    () => write(`unmute of ${other} by ${actor}`, 'POST', (side) => `/api/users/unmute/${user(side, other)}`),
    () => write(`lock by ${actor}`, 'POST', () => '/api/users/edit', { locked: random.chance(0.6) }),
    () =>
      write(
        `authorize of ${other} by ${actor}`,
        'POST',
        (side) => `/api/follow-requests/${user(side, other)}/authorize`,
      ),
    () => write(`reject of ${other} by ${actor}`, 'POST', (side) => `/api/follow-requests/${user(side, other)}/reject`),
    () =>
      write(`profile edit by ${actor}`, 'POST', () => '/api/users/edit', {
        ...(random.chance(0.5) ? { displayName: textOf(random, 50) } : {}),
        ...(random.chance(0.5) ? { bio: textOf(random, 160) } : {}),
        ...(random.chance(0.3) ? { firstName: textOf(random, 50) } : {}),
        ...(random.chance(0.2) ? { defaultVisibility: random.pick(VISIBILITIES) } : {}),
      }),
    () => {
      const comment = random.chance(0.5) ? { comment: textOf(random, 1000) } : {}
      return {
        label: `report of ${p} by ${actor}`,
        actor,
        request: (side) => ({
          method: 'POST',
          url: '/api/reports',
          payload: { targetType: 'post', targetId: post(side, p), category: 'spam', ...comment },
        }),
      }
    },
    () => write(`notifications read by ${actor}`, 'POST', () => '/api/notifications/read', {}),
    () => ({
      label: `post ${p} read by ${actor}`,
      actor,
      request: (side) => ({ method: 'GET', url: `/api/posts/${post(side, p)}` }),
    }),
    () => ({
      label: `post ${p} read by someone not signed in`,
      actor: undefined,
      request: (side) => ({ method: 'GET', url: `/api/posts/${post(side, p)}` }),
    }),
    () => ({
      label: `trending tags read by ${actor}`,
      actor,
      request: () => ({ method: 'GET', url: '/api/tags/trending' }),
    }),
    () => ({
      label: `profile of ${other} read by ${actor}`,
      actor,
      request: (side) => ({ method: 'GET', url: `/api/users/${usernameOf(side, other)}` }),
    }),
    () => page(random, posts),
    () => page(random, posts),
    () => page(random, posts),
    () => page(random, posts),
  ]
  return random.pick(steps)()
}
