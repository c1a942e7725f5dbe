import type { LoggedEvent } from '../types.js'

/**
 * What a write changed, read from the event it logged: the tags of TaggedCache that it voids on every
 * instance. Each instance receives every event of the shared log, its own writes' before they are
 * answered, so an instance's kept reads follow every write in the cluster.
 *
 * - `post:<id>`: that post's record, its view, and every page that holds it;
 * - `author:<id>`: the home-feed pages of that person's followers (their posts and reposts);
 * - `likes-of:<id>`: the most-liked pages holding that person's posts, whose order a like of one can change;
 * - `likes`: every most-liked page (a suspension changes whose likes count);
 * - `follows:<id>`: whom that person follows; `relations:<id>`: whom they block and mute, and who blocks them;
 * - `liked-by:<id>`, `reposted-by:<id>`: which posts that person likes or reposts;
 * - `people`: anything showing a person's name or picture; `suspensions`: who is suspended.
 *
 * An event this table does not know voids everything (`ALL`): a new kind of write is safe before it is
 * given tags of its own.
 */
export const ALL = 'all'

/** Events that change nothing the caches keep: they concern one person's notifications, reports or sessions. */
const NOTHING_KEPT = new Set([
  'bookmark.added',
  'bookmark.removed',
  'notification.created',
  'notification.read',
  'report.created',
  'session.ended',
])

interface EventData {
  postId?: unknown
  authorId?: unknown
  post?: { _id?: unknown }
  user?: { _id?: unknown }
}

const id = (value: unknown) => (typeof value === 'string' ? value : undefined)

export function changeTags(event: LoggedEvent): readonly string[] | typeof ALL {
  if (NOTHING_KEPT.has(event.name)) return []
  let data: EventData
  try {
    data = JSON.parse(event.data) as EventData
  } catch {
    return ALL
  }
  const postId = id(data.postId) ?? id(data.post?._id)
  const by = event.by
  const post = postId === undefined ? [] : [`post:${postId}`]
  switch (event.name) {
    case 'post.created':
      return by === undefined ? ALL : [...post, `author:${by}`]
    case 'post.deleted':
      return by === undefined ? [...post, 'likes'] : [...post, `author:${by}`, `likes-of:${by}`]
    case 'post.liked': {
      const author = id(data.authorId)
      return postId === undefined || by === undefined || author === undefined
        ? ALL
        : [...post, `likes-of:${author}`, `liked-by:${by}`]
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
    case 'user.suspended':
    case 'user.unsuspended':
      return ['suspensions', 'likes']
    default:
      return ALL
  }
}
