/**
 * What a write changed, read from the events it committed: the tags of TaggedCache (server/tagged-cache.ts)
 * that it voids. Both stores name their changes by these (Store.watchChanges): the embedded store from each
 * transaction's events as it commits, PostgreSQL from the events of its shared log as they reach each
 * instance, a write's own before it is answered, so every instance's kept reads follow every write.
 *
 * - `post:<id>`: that post's record, its view, and every page that holds it;
 * - `author:<id>`: the home-feed pages of that person's followers (their posts and reposts);
 * - `likes-at:<n>`: the most-liked pages whose range of like counts holds a count of bucket n
 *   (likeBucket): a like moves its post from one count to the next, and only a page whose range holds
 *   either can gain or lose it (one that holds the post itself is voided by `post:<id>` as well);
 * - `likes`: every most-liked page (a suspension changes whose likes count);
 * - `follows:<id>`: whom that person follows; `relations:<id>`: whom they block and mute, and who blocks them;
 * - `liked-by:<id>`, `reposted-by:<id>`: which posts that person likes or reposts;
 * - `people`: anything showing a person's name or picture; `suspensions`: who is suspended;
 * - `filters:<id>`, `lists:<id>`: that person's keyword filters, or their lists;
 * - `token:<id>`: whether that token was logged out (logging out every token raises the user's token
 *   version instead, which is never kept).
 *
 * An event this table does not know voids everything (`ALL`): a new kind of write is safe before it is
 * given tags of its own.
 */
export const ALL = 'all'

/** Like counts to 64 have a bucket each; above, one bucket for each doubling. */
const EXACT_COUNTS = 64

export function likeBucket(count: number): number {
  return count <= EXACT_COUNTS ? Math.max(0, count) : EXACT_COUNTS + Math.floor(Math.log2(count / EXACT_COUNTS)) + 1
}

/** The buckets of every count from `low` to `high` (Infinity for no end), as `likes-at` tags. */
export function likeBucketTags(low: number, high: number): string[] {
  const top = likeBucket(Number.isFinite(high) ? high : 2 ** 31)
  const tags: string[] = []
  for (let bucket = likeBucket(low); bucket <= top; bucket++) tags.push(`likes-at:${bucket}`)
  return tags
}

/**
 * Events that change nothing the caches keep: they concern one person's notifications, reports, sessions
 * or follow requests (a request is no follow), or conversations (whose reads are never kept).
 */
const NOTHING_KEPT = new Set([
  'bookmark.added',
  'bookmark.removed',
  'conversation.updated',
  'conversation.deleted',
  'notification.created',
  'notification.read',
  'report.created',
  'follow_request.created',
])

/** What changeTags reads of an event: its name, whose it is and to whom, and its data (or its JSON). */
export interface ChangeEvent {
  name: string
  data: unknown
  by?: string | undefined
  to?: string | undefined
}

interface EventData {
  tokenId?: unknown
  postId?: unknown
  liked?: unknown
  likeCount?: unknown
  post?: { _id?: unknown }
  user?: { _id?: unknown }
}

const id = (value: unknown) => (typeof value === 'string' ? value : undefined)

export function changeTags(event: ChangeEvent): readonly string[] | typeof ALL {
  if (NOTHING_KEPT.has(event.name)) return []
  const data = dataOf(event.data)
  if (data === undefined) return ALL
  const postId = id(data.postId) ?? id(data.post?._id)
  const by = event.by
  const post = postId === undefined ? [] : [`post:${postId}`]
  switch (event.name) {
    case 'post.created':
      return by === undefined ? ALL : [...post, `author:${by}`]
    case 'post.deleted':
      return by === undefined ? [...post, 'likes'] : [...post, `author:${by}`]
    case 'post.liked': {
      const count = data.likeCount
      if (postId === undefined || by === undefined || typeof count !== 'number' || typeof data.liked !== 'boolean')
        return ALL
      const before = data.liked ? count - 1 : count + 1
      return [...post, `liked-by:${by}`, `likes-at:${likeBucket(before)}`, `likes-at:${likeBucket(count)}`]
    }
    case 'post.reposted':
      return postId === undefined || by === undefined ? ALL : [...post, `author:${by}`, `reposted-by:${by}`]
    case 'post.updated':
    case 'post.pinned':
    case 'poll.voted':
    case 'comment.added':
    case 'comment.updated':
    case 'comment.deleted':
    case 'comment.voted':
      return postId === undefined ? ALL : post
    case 'user.updated':
      return ['people']
    case 'session.ended': {
      const token = id(data.tokenId)
      return token === undefined ? [] : [`token:${token}`]
    }
    case 'user.followed':
    case 'user.unfollowed':
      return by === undefined ? ALL : [`follows:${by}`]
    case 'user.blocked':
    case 'user.unblocked':
    case 'user.muted':
    case 'user.unmuted': {
      const other = id(data.user?._id)
      return event.to === undefined || other === undefined ? ALL : [`relations:${event.to}`, `relations:${other}`]
    }
    case 'filters.changed':
      return event.to === undefined ? ALL : [`filters:${event.to}`]
    case 'lists.changed':
      return event.to === undefined ? ALL : [`lists:${event.to}`]
    case 'user.suspended':
    case 'user.unsuspended':
      return ['suspensions', 'likes']
    default:
      return ALL
  }
}

/** An event's data as an object: as committed, or parsed from the log's JSON; undefined when it is neither. */
function dataOf(data: unknown): EventData | undefined {
  if (typeof data === 'string') {
    try {
      return dataOf(JSON.parse(data))
    } catch {
      return undefined
    }
  }
  return typeof data === 'object' && data !== null ? (data as EventData) : undefined
}

/**
 * What one committed write changed, from all its events: the union of their tags, or ALL when any of them
 * voids everything or the write committed no event at all (nothing then says what it changed).
 */
export function writeChange(events: readonly ChangeEvent[]): readonly string[] | typeof ALL {
  if (events.length === 0) return ALL
  const tags = new Set<string>()
  for (const event of events) {
    const its = changeTags(event)
    if (its === ALL) return ALL
    for (const tag of its) tags.add(tag)
  }
  return [...tags]
}
