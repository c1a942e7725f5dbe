import { parseRichText } from '../../common/text-rules.js'
import type { FilterContext } from '../services/filters.js'
import type { EventPayloads, NotificationEventPayloads } from '../schemas/events.js'
import type { Conversation } from '../schemas/conversations.js'
import type { Post } from '../schemas/posts.js'
import type { EventListener, EventsHub } from '../plugins/events.js'
import type { Services } from '../services/index.js'
import { covers, type Scope } from '../services/scopes.js'
import { statusIdOf } from '../services/status-ids.js'
import { accountOf } from './account-entity.js'
import { notificationOf } from './notification-entity.js'
import { OUT_OF_SCOPE } from './scopes-guard.js'
import { statusOfPost } from './status-page.js'

/**
 * Mastodon's streaming API (DECISIONS §13) over Chirp's events hub: a connection is one of the hub's
 * listening streams, so it hears exactly the events its reader may see (the hub's rule of audiences,
 * blocks and mutes, the same one Chirp's own live stream keeps), from every instance, and ends with
 * its token. Here those events are sorted into Mastodon's streams and drawn as Mastodon's entities.
 */

const STREAM_NAMES = [
  'user',
  'user:notification',
  'public',
  'public:local',
  'hashtag',
  'hashtag:local',
  'direct',
  'list',
] as const
export type StreamName = (typeof STREAM_NAMES)[number]

const isStreamName = (name: string): name is StreamName => (STREAM_NAMES as readonly string[]).includes(name)
const TAGGED: ReadonlySet<StreamName> = new Set(['hashtag', 'hashtag:local'])
/** What each stream needs of a token, either scope: Mastodon's rule. */
const STREAM_SCOPES: Record<StreamName, readonly Scope[]> = {
  user: ['read', 'read:statuses'],
  'user:notification': ['read', 'read:notifications'],
  public: ['read', 'read:statuses'],
  'public:local': ['read', 'read:statuses'],
  hashtag: ['read', 'read:statuses'],
  'hashtag:local': ['read', 'read:statuses'],
  direct: ['read', 'read:statuses'],
  list: ['read', 'read:lists'],
}
/** What a connection needs at all: any of these. */
export const STREAMING_SCOPES: readonly Scope[] = ['read', 'read:statuses', 'read:notifications']

/** The most streams one connection holds at once. */
const MAX_SUBSCRIPTIONS = 100
/** The most events one connection may have waiting to be drawn; a reader that falls further behind is dropped. */
const MAX_WAITING = 500

export const STREAMING_ERRORS = {
  unknownStream: 'Unknown stream type',
  noTag: 'No tag for stream provided',
  noList: 'No list for stream provided',
  scopes: OUT_OF_SCOPE,
  badMessage: 'Could not parse the message',
  tooMany: 'Too many subscriptions',
} as const

/** The scopes of a token (undefined: Chirp's own session, which has every one) cover one of `needed`. */
export const grants = (scopes: readonly string[] | undefined, needed: readonly Scope[]) =>
  scopes === undefined || needed.some((scope) => covers(scopes, scope))

/** An event as the hub hands it on: its name, its data as JSON text, whom and what it concerns. */
type HubEvent = Parameters<EventListener['event']>[0]

/**
 * A stream a connection holds: its name and, for a hashtag's, the tag (compared without regard to case), or
 * for a list's, the list's id.
 */
export interface Subscription {
  name: StreamName
  tag?: string
  list?: string
}

/** Where a connection's messages go: a WebSocket or an event stream. */
export interface Outlet {
  /** One event of one stream, its payload as Mastodon encodes it (a JSON text, or a bare id for `delete`). */
  send(stream: readonly string[], event: string, payload: string): void
  /** Bytes written and not yet sent; past a bound the reader is too slow and is dropped. */
  backlog(): number
  close(): void
}

/** A subscription request as a WebSocket message or a URL names it: the subscription, or the error to answer. */
export function subscriptionOf(
  name: unknown,
  tag: unknown,
  scopes: readonly string[] | undefined,
  list?: unknown,
): Subscription | { error: string; status: number } {
  if (typeof name !== 'string' || !isStreamName(name)) return { error: STREAMING_ERRORS.unknownStream, status: 400 }
  if (!grants(scopes, STREAM_SCOPES[name])) return { error: STREAMING_ERRORS.scopes, status: 403 }
  if (name === 'list') {
    if (typeof list !== 'string' || list.trim() === '' || list.length > 100)
      return { error: STREAMING_ERRORS.noList, status: 400 }
    return { name, list }
  }
  if (!TAGGED.has(name)) return { name }
  if (typeof tag !== 'string' || tag.trim() === '' || tag.length > 200)
    return { error: STREAMING_ERRORS.noTag, status: 400 }
  return { name, tag: tag.replace(/^#/, '').toLowerCase() }
}

const keyOf = ({ name, tag, list }: Subscription) =>
  list !== undefined ? `${name}@${list}` : tag === undefined ? name : `${name}#${tag}`
const labelOf = ({ name, tag, list }: Subscription): string[] =>
  list !== undefined ? [name, list] : tag === undefined ? [name] : [name, tag]

/** The context of the reader's keyword filters each stream reads in (DECISIONS §15). */
const contextOf = (sub: Subscription): FilterContext => (sub.name === 'user' || sub.name === 'list' ? 'home' : 'public')

const tagsOf = (content: string) =>
  new Set(parseRichText(content).flatMap((segment) => (segment.kind === 'tag' ? [segment.tag.toLowerCase()] : [])))

interface ConnectionOptions {
  services: Services
  publicUrl: string
  events: EventsHub
  userId: string
  tokenId?: string | undefined
  /** The token's scopes; undefined for Chirp's own session. */
  scopes: readonly string[] | undefined
  outlet: Outlet
  /** Bytes a reader may leave unsent before it is dropped. */
  maxBacklog: number
  log?: { warn(obj: object, msg: string): void } | undefined
}

/** A message's payload and the streams it goes to. */
interface Drawn {
  streams: Subscription[]
  payload: string
}

/** One message to draw when its turn comes: its payloads and the streams each goes to, or nothing after all. */
interface Draft {
  event: string
  draw: () => Promise<Drawn | Drawn[] | undefined>
}

/** Where a post shows, as far as its audience and author tell; its tags choose among `tagged`. */
interface Places {
  home: Subscription[]
  open: Subscription[]
  tagged: Subscription[]
}

/**
 * One reader's connection: the streams it holds, and the hub's events, in order, as Mastodon's messages
 * of those streams. Which streams an event may go to is decided as the event arrives (the follows it
 * depends on are the hub's as of that event); its entity is read afterwards, one event at a time.
 */
export function createConnection(options: ConnectionOptions) {
  const { services, publicUrl, events, userId, scopes, outlet } = options
  const held = new Map<string, Subscription>()
  let chain: Promise<void> = Promise.resolve()
  let waiting = 0
  let ended = false

  const holding = (...names: StreamName[]) => [...held.values()].filter((sub) => names.includes(sub.name))
  const homeOf = (authorId: string) => authorId === userId || events.isFollowing(userId, authorId)
  /** A post shows in the reader's home as their home feed shows it, and when public, in the public and tag streams. */
  function placesOf(visibility: Post['visibility'], authorId: string): Places {
    const home = visibility !== 'direct' && homeOf(authorId) ? holding('user') : []
    if (visibility !== 'public') return { home, open: [], tagged: [] }
    return { home, open: holding('public', 'public:local'), tagged: holding('hashtag', 'hashtag:local') }
  }
  const isEmpty = ({ home, open, tagged }: Places) => home.length + open.length + tagged.length === 0
  function streamsIn({ home, open, tagged }: Places, content: string): Subscription[] {
    const tags = tagsOf(content)
    return [...home, ...open, ...tagged.filter((sub) => tags.has(sub.tag ?? ''))]
  }

  const statusJson = async (post: Post) => JSON.stringify(await statusOfPost(services, publicUrl, post, userId))
  /** The post as the reader may read it now; undefined once they may not (its removal follows). */
  const readPost = (postId: string) =>
    services.posts.get(postId, userId).then(
      ({ post }) => post,
      () => undefined,
    )
  /** The lists held whose people (those the reader follows) include the author. */
  async function listsWith(authorId: string): Promise<Subscription[]> {
    const held = holding('list')
    if (held.length === 0 || authorId === '' || !events.isFollowing(userId, authorId)) return []
    const lists = await services.lists.list(userId)
    return held.filter((sub) => lists.some((list) => list._id === sub.list && list.memberIds.includes(authorId)))
  }
  /**
   * The post for each stream, as the reader's filters of that stream's context leave it: one payload a
   * context, none for a stream whose filters hide it.
   */
  async function perContext(postId: string, streams: Subscription[], shown: (post: Post) => Post = (post) => post) {
    const drawn: Drawn[] = []
    for (const context of new Set(streams.map(contextOf))) {
      const post = await services.posts.readIn(postId, userId, context)
      if (post === undefined) continue
      drawn.push({
        streams: streams.filter((sub) => contextOf(sub) === context),
        payload: await statusJson(shown(post)),
      })
    }
    return drawn
  }

  function draftOf(event: HubEvent): Draft | undefined {
    switch (event.name) {
      case 'post.created': {
        const { post } = JSON.parse(event.data) as EventPayloads['post.created']
        const streams = streamsIn(placesOf(post.visibility, event.by ?? ''), post.content)
        const listed = post.visibility !== 'direct' && holding('list').length > 0
        if (streams.length === 0 && !listed) return undefined
        return {
          event: 'update',
          draw: async () => perContext(post._id, [...streams, ...(listed ? await listsWith(event.by ?? '') : [])]),
        }
      }
      case 'post.reposted': {
        const data = JSON.parse(event.data) as EventPayloads['post.reposted']
        const by = data.post?.repostedBy
        const streams = holding('user')
        if (!data.reposted || !by || !homeOf(by._id) || streams.length === 0) return undefined
        return {
          event: 'update',
          draw: async () =>
            perContext(data.postId, streams, (read) => ({ ...read, repostedBy: by, repostedAt: data.at })),
        }
      }
      case 'post.updated': {
        const { postId } = JSON.parse(event.data) as EventPayloads['post.updated']
        // An edit never changes a post's audience: the event carries it, and no audience is a public post.
        const { audience } = event
        const places = placesOf(audience?.visibility ?? 'public', audience?.authorId ?? event.by ?? '')
        if (isEmpty(places)) return undefined
        return {
          event: 'status.update',
          draw: async () => {
            const read = await readPost(postId)
            return read && { streams: streamsIn(places, read.content), payload: await statusJson(read) }
          },
        }
      }
      case 'post.deleted': {
        const { postId, createdAt } = JSON.parse(event.data) as EventPayloads['post.deleted']
        const streams = holding('user', 'public', 'public:local', 'hashtag', 'hashtag:local')
        if (createdAt === undefined || streams.length === 0) return undefined
        const payload = statusIdOf({ at: createdAt, postId })
        return { event: 'delete', draw: async () => ({ streams, payload }) }
      }
      case 'notification.created': {
        const notification = JSON.parse(event.data) as NotificationEventPayloads['notification.created']
        // The user stream carries notifications only to a token that may read them.
        const streams = [
          ...(grants(scopes, STREAM_SCOPES['user:notification']) ? holding('user') : []),
          ...holding('user:notification'),
        ]
        if (streams.length === 0) return undefined
        return {
          event: 'notification',
          draw: async () => {
            // Nothing when its actor is hidden from the reader, as the notifications list leaves it out.
            const entity = await notificationOf(services, publicUrl, notification, userId)
            return entity && { streams, payload: JSON.stringify(entity) }
          },
        }
      }
      case 'conversation.updated': {
        const { conversation } = JSON.parse(event.data) as { conversation: Conversation }
        const streams = holding('direct')
        if (streams.length === 0) return undefined
        return {
          event: 'conversation',
          draw: async () => ({ streams, payload: JSON.stringify(await conversationOf(conversation)) }),
        }
      }
      default:
        return undefined
    }
  }

  /** A conversation as Mastodon's entity, as its reader sees it. */
  async function conversationOf(conversation: Conversation) {
    const people = await Promise.all(conversation.participants.map(({ _id }) => services.users.get(_id, userId)))
    return {
      id: conversation._id,
      unread: conversation.unread > 0,
      accounts: people.map(({ user }) => accountOf(user, publicUrl)),
      last_status: JSON.parse(await statusJson(conversation.lastPost)) as unknown,
    }
  }

  function drop(reason: string): void {
    if (ended) return
    options.log?.warn({ userId, reason }, 'dropping a streaming connection')
    close()
  }

  async function deliver(draft: Draft): Promise<void> {
    const drawn = await draft.draw()
    if (drawn === undefined || ended) return
    for (const { streams, payload } of Array.isArray(drawn) ? drawn : [drawn]) {
      for (const stream of streams) outlet.send(labelOf(stream), draft.event, payload)
    }
    if (outlet.backlog() > options.maxBacklog) drop('it stopped reading')
  }

  const listener: EventListener = {
    event(event) {
      const draft = draftOf(event)
      if (draft === undefined) return
      if (waiting >= MAX_WAITING) return drop('it fell too far behind')
      waiting++
      chain = chain
        .then(() => deliver(draft))
        .catch((err: unknown) => options.log?.warn({ userId, err }, 'a streaming event could not be drawn'))
        .finally(() => waiting--)
    },
    end: () => close(),
  }

  let stop: (() => void) | undefined

  function close(): void {
    if (ended) return
    ended = true
    stop?.()
    outlet.close()
  }

  return {
    /** Starts hearing the hub, once the reader's place is held and whom they hide and follow is read. */
    open(place: Parameters<EventsHub['listen']>[1]['place']): void {
      if (ended) {
        place?.release()
        return
      }
      stop = events.listen(listener, {
        userId,
        ...(options.tokenId === undefined ? {} : { tokenId: options.tokenId }),
        place,
      })
    },
    subscribe(subscription: Subscription): string | undefined {
      if (!held.has(keyOf(subscription)) && held.size >= MAX_SUBSCRIPTIONS) return STREAMING_ERRORS.tooMany
      held.set(keyOf(subscription), subscription)
      return undefined
    },
    unsubscribe(subscription: Subscription): void {
      held.delete(keyOf(subscription))
    },
    /** The other side went away. */
    close,
    get ended() {
      return ended
    },
  }
}
