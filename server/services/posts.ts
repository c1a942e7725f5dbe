import { randomUUID } from 'node:crypto'
import { applyFilters, filterJudge, type FilterContext } from './filters.js'
import { exclusiveMembers, membersOf } from './lists.js'
import { DEFAULT_VISIBILITY, type Visibility } from '../../common/audience.js'
import { MSG, badRequest, notFound } from '../errors.js'
import type { FeedQuery, PostData, UserPostsQuery } from '../schemas/posts.js'
import { hasVisibleText } from '../schemas/text.js'
import type {
  MediaRecord,
  PageRequest,
  PostChanges,
  PostRecord,
  StoreReader,
  StoreTx,
  UserSummaryRecord,
} from '../store/types.js'
import { imageUrlsOf } from '../store/post-parts.js'
import { LIMITS } from '../../common/limits.js'
import type { ServiceDeps } from './deps.js'
import { mentionedIn, notify, syncMentions } from './notifier.js'
import { editedValue } from './aliases.js'
import { dropUploads } from './media-deletion.js'
import { deletePostIn } from './removals.js'
import { isValidMediaUrl } from './urls.js'
import { cardLinkOf, type LinkCards } from './link-cards.js'
import { DEFAULT_PAGE } from './notifications.js'
import { postImagesOf, postViews, type Reader } from './post-views.js'
import { newPoll } from './poll-views.js'
import { noticeClosedPolls, pollCloseJob } from './polls.js'
import { createPostActions, withoutQuote } from './post-actions.js'
import { homeFeed } from './home-feed.js'
import { createLikeBatches } from './like-batches.js'
import type { RemoteReactions } from './remote-reactions.js'
import { lookup, summaryOf, summaryRecordOf } from './views.js'
import { hiddenFrom, seeing } from './visibility.js'
import { LISTED, checkMayRead, readableBy, shownTo } from './audience-reads.js'
import { checkPostTexts, checkVisibility } from './content-rules.js'
import { directAudience, sendDirect } from './conversations.js'
import { visibilityOf } from './audience.js'
import { audienceOf } from './audience-events.js'
import type { RemotePosts } from './remote-posts.js'
import { historyOf, keepVersion } from './post-history.js'

async function mustGetPost(store: StoreReader, id: string): Promise<PostRecord> {
  const post = await store.getPost(id)
  if (!post) throw notFound(MSG.postNotFound)
  return post
}

/** The pixel size of an image this server stored; undefined for any other URL. */
type MediaSizes = (url: string) => Promise<{ width: number; height: number } | undefined>

/** An image as a post asks for it: its URL and its description. */
type AskedImage = { url: string; alt?: string | undefined }

/** The one image of the original mock's fields: none for an empty `mediaUrl`, which refuses a description. */
function imagesOfUrl(mediaUrl: string, mediaAlt: string | undefined): AskedImage[] {
  if (mediaUrl === '' && mediaAlt) throw badRequest(MSG.altWithoutMedia)
  return mediaUrl === '' ? [] : [{ url: mediaUrl, alt: mediaAlt }]
}

/** Whether `sent` is the post's images exactly as it shows them, each with its description. */
function repeatsImages(sent: readonly AskedImage[], post: Parameters<typeof postImagesOf>[0]): boolean {
  const shown = postImagesOf(post)
  return (
    sent.every((image, i) => image.url === shown[i]?.url && (image.alt ?? '') === shown[i]?.alt) &&
    sent.length === shown.length
  )
}

/**
 * A post's text and image fields as they will be stored, or the refusal that says what is wrong: at most
 * 4 images (DECISIONS §17), each an upload of this server or an https URL. The first image is the record's
 * `mediaUrl` and its fields, the rest `moreMedia`. Every image field is named, absent ones as undefined,
 * so an edit that changes the images clears what they had.
 */
async function checkMedia(content: string, images: readonly AskedImage[], sizeOf: MediaSizes): Promise<PostChanges> {
  if (images.length > LIMITS.postImages) throw badRequest(MSG.tooManyImages)
  if (images.some((image) => image.url === '' || !isValidMediaUrl(image.url))) throw badRequest(MSG.badMediaUrl)
  if (!hasVisibleText(content) && images.length === 0) throw badRequest(MSG.emptyPost)
  const stored: MediaRecord[] = await Promise.all(
    images.map(async ({ url, alt }) => {
      const size = await sizeOf(url)
      return { url, ...(alt ? { alt } : {}), ...(size ? { width: size.width, height: size.height } : {}) }
    }),
  )
  const [first, ...more] = stored
  return {
    content,
    mediaUrl: first?.url ?? '',
    type: first ? 'image' : '',
    mediaAlt: first?.alt,
    mediaWidth: first?.width,
    mediaHeight: first?.height,
    moreMedia: more,
  }
}

const paged = (page: PageRequest) => page.limit !== undefined || page.cursor !== undefined

/** A list asked for without a limit still ends somewhere: no request reads a whole table. */
export const MAX_UNPAGED = 1000
export const unpagedCap = (page: PageRequest): PageRequest => (paged(page) ? page : { limit: MAX_UNPAGED })

/** A poll's day, in seconds, where no setting says otherwise. */
const DEFAULT_POLL_DAY = 86_400

/** Without a media folder (a store tested alone), no image's size is known. */
const noSizes: MediaSizes = async () => undefined

/**
 * The audience a new post gets: the one asked for, else direct when it answers a direct post, else the
 * author's default. A post answering a direct post is direct, or refused.
 */
function chosenVisibility(data: PostData, defaultVisibility: Visibility | undefined): Visibility {
  if (data.inReplyTo === undefined) return data.visibility ?? defaultVisibility ?? DEFAULT_VISIBILITY
  if (data.visibility !== undefined && data.visibility !== 'direct') throw badRequest(MSG.replyNotDirect)
  return 'direct'
}

/** A post's content warning as stored: '' means none. */
const spoilerOf = (text: string | undefined) => (text ? { spoilerText: text } : {})

/** What a new post has had of nobody yet: no likes, no comments. */
export const UNTOUCHED = { likedBy: [], dislikedBy: [], comments: [], likeCount: 0, commentCount: 0 } as const

/**
 * Keeps a new post that is not direct, in the caller's transaction, and tells of it: to every open screen
 * its audience may read, and to the people it mentions.
 */
export async function publishIn(tx: StoreTx, author: UserSummaryRecord, record: PostRecord, at: string) {
  await tx.insertPost(record)
  const [post] = await postViews(tx, [record])
  if (post)
    tx.emit({
      name: 'post.created',
      data: { post: withoutQuote(post) },
      by: author._id,
      audience: audienceOf(record),
    })
  await syncMentions(tx, author, { before: '', after: record.content }, { post: record }, at)
}

export interface PostsDeps extends ServiceDeps {
  sizeOf?: MediaSizes
  /** The jobs that make link cards of posts just written (link-cards.ts); none are made without it. */
  linkCards?: Pick<LinkCards, 'jobFor'>
  /** How long a poll's day lasts, in seconds. */
  pollDaySeconds?: number
  /** Queues a post's delivery to other servers in the write's transaction (remote-posts.ts); none without it. */
  federate?: RemotePosts['federate']
  /** Queues a like's or a repost's delivery to other servers in the write's transaction (remote-reactions.ts). */
  federateReaction?: RemoteReactions['federate']
}

export function createPostsService({
  store,
  now,
  sizeOf = noSizes,
  linkCards,
  pollDaySeconds = DEFAULT_POLL_DAY,
  federate = async () => {},
  federateReaction = async () => {},
}: PostsDeps) {
  /** A profile someone reads, and how they see: one the person blocks them from is not there. */
  async function profileOf(username: string, asked: Reader) {
    // A person of another server may be named with a leading @, as their handle is written.
    const user = await store.getUserByUsername(username.replace(/^@(?=.*@)/, ''))
    const reader = await seeing(store, asked, now())
    if (!user || user.pending || reader.hidden.shut.has(user._id)) throw notFound(MSG.userNotFound)
    return { user, reader }
  }

  /**
   * Views of a list's posts; a poll among them that closed unnoticed is told to its author first. With a
   * context, the reader's keyword filters of it leave out or mark the posts they match (DECISIONS §15).
   */
  async function listViews(items: readonly PostRecord[], reader: Reader & { at: Date }, context?: FilterContext) {
    await noticeClosedPolls(store, items, reader.at)
    const views = await postViews(store, items, reader)
    return context === undefined ? views : applyFilters(store, reader.userId, context, views, reader.at)
  }

  /** The post as it now is (or as `known`, read by the write that just committed), to `userId` when someone signed in asks. */
  async function view(postId: string, userId?: string, known?: PostRecord) {
    const [record, reader] = await Promise.all([
      known ?? mustGetPost(store, postId),
      seeing(store, { userId, compact: false }, now()),
    ])
    // To someone its author blocks, or outside its audience, the post is not there.
    if (reader.hidden.shut.has(record.authorId)) throw notFound(MSG.postNotFound)
    await checkMayRead(store, record, userId)
    const [post] = await listViews([record], reader)
    if (!post) throw notFound(MSG.postNotFound)
    return { post }
  }

  const likeBatches = createLikeBatches(
    { store, now },
    { written: (tx, change, post, at) => federateReaction(tx, 'like', change.userId, post, change.liked, at) },
  )

  /** A like (true) or an unlike, written with whatever others arrive with it (like-batches.ts). */
  async function react(userId: string, postId: string, liked: boolean) {
    return view(postId, userId, await likeBatches(userId, postId, liked))
  }

  const { repost, pin, quoted } = createPostActions({ store, now, federateReaction }, view)

  /** Who likes or reposts the post, as the reader may see them: none of a post they may not read. */
  async function peopleOf(
    postId: string,
    { limit = DEFAULT_PAGE, cursor }: PageRequest,
    viewerId: string | undefined,
    list: 'listLikers' | 'listReposters',
  ) {
    const post = await mustGetPost(store, postId)
    const hidden = await hiddenFrom(store, viewerId, now())
    if (hidden.shut.has(post.authorId)) throw notFound(MSG.postNotFound)
    await checkMayRead(store, post, viewerId)
    const { items, nextCursor } = await store[list](post._id, { limit, cursor, hide: hidden.people })
    const users = await lookup(store, items)
    return { users: items.flatMap((id) => users.get(id) ?? []).map(summaryOf), nextCursor }
  }

  /** A new post as it will be kept, checked against every rule a post's own fields answer to. */
  async function draft(userId: string, data: PostData, at: string): Promise<PostRecord> {
    checkPostTexts({ ...data, pollOptions: data.poll?.options })
    if (data.visibility !== undefined) checkVisibility(data.visibility)
    const asked = data.media ?? imagesOfUrl(data.mediaUrl ?? '', data.mediaAlt)
    const { mediaAlt, mediaWidth, mediaHeight, moreMedia, ...media } = await checkMedia(
      data.content ?? '',
      asked,
      sizeOf,
    )
    const drawn: PostRecord = {
      _id: randomUUID(),
      authorId: userId,
      ...media,
      ...(data.quoteOf !== undefined ? { quoteOf: data.quoteOf } : {}),
      ...(mediaAlt !== undefined ? { mediaAlt } : {}),
      ...(mediaWidth !== undefined && mediaHeight !== undefined ? { mediaWidth, mediaHeight } : {}),
      ...(moreMedia && moreMedia.length > 0 ? { moreMedia } : {}),
      ...spoilerOf(data.spoilerText),
      ...(data.poll ? { poll: newPoll(data.poll, new Date(at), pollDaySeconds) } : {}),
      createdAt: at,
      updatedAt: at,
      ...UNTOUCHED,
    }
    return drawn
  }

  /** Keeps and tells of a drawn post, in the caller's transaction. */
  async function publishDrawn(tx: StoreTx, userId: string, data: PostData, drawn: PostRecord, at: string) {
    const me = await tx.getAccount(userId)
    if (!me) throw notFound(MSG.userNotRegistered)
    const quote = data.quoteOf === undefined ? undefined : await quoted(tx, userId, data.quoteOf)
    const visibility = chosenVisibility(data, me.defaultVisibility)
    if (visibility === 'direct') {
      // A direct message: into its conversation, to its recipients alone (conversations.ts).
      const audience = await directAudience(tx, userId, drawn.content, data.inReplyTo, at)
      await sendDirect(tx, me, { ...drawn, visibility }, audience, new Date(at))
      await federate(tx, { ...drawn, visibility, addressed: audience.recipients }, 'create', at)
    } else {
      // The audience is fixed here: who it reaches beyond the author's followers is who it mentions now.
      const addressed = [...(await mentionedIn(tx, drawn.content)).keys()].filter((id) => id !== userId)
      // A public post keeps no audience, as PostgreSQL reads one back.
      const audience = visibility === DEFAULT_VISIBILITY ? {} : { visibility }
      const record: PostRecord = { ...drawn, ...audience, ...(addressed.length > 0 ? { addressed } : {}) }
      await publishIn(tx, me, record, at)
      await federate(tx, record, 'create', at)
    }
    // A direct post is for its recipients alone: the quoted author is not told of it.
    if (quote && visibility !== 'direct') await notify(tx, me, quote.authorId, 'quote', { post: drawn }, at)
    if (drawn.poll) await tx.enqueueJob(pollCloseJob(drawn._id, drawn.poll), at)
    const cardJob = linkCards?.jobFor(drawn._id, drawn.content)
    if (cardJob) await tx.enqueueJob(cardJob, at)
  }

  return {
    /** The newest posts, at most a page of MAX_UNPAGED: the `posts` of a write reply and of an unpaginated GET /posts. */
    async all() {
      const { items } = await store.listPosts({ sort: 'latest', limit: MAX_UNPAGED, audience: LISTED })
      return postViews(store, items)
    },

    /** Everyone's public posts, newest first, or oldest first for a reader who pages up (the Mastodon API). */
    async list({ limit, cursor, sort = 'latest' }: PageRequest & { sort?: 'latest' | 'oldest' }, asked: Reader) {
      const page = { limit, cursor }
      const reader = await seeing(store, asked, now())
      const hide = reader.hidden.people
      const { items, nextCursor } = await store.listPosts({
        sort,
        ...unpagedCap(page),
        hide,
        audience: LISTED,
      })
      const posts = await listViews(items, reader, 'public')
      return paged(page) ? { posts, nextCursor } : { posts }
    },

    /**
     * Everyone's public posts, the most liked first (likes by suspended people counting nowhere), the
     * newest first among equals: the `trending` order of the home feed, over every public post.
     */
    async trending(limit: number, asked: Reader) {
      const reader = await seeing(store, asked, now())
      const { items } = await store.listPosts({
        sort: 'trending',
        limit: Math.min(limit, MAX_UNPAGED),
        hide: reader.hidden.people,
        uncounted: reader.hidden.suspended,
        audience: LISTED,
      })
      return { posts: await listViews(items, reader, 'public') }
    },

    /** The post's own page: the reader's filters of threads mark it, but do not hide what was asked for. */
    async get(postId: string, userId?: string) {
      const { post } = await view(postId, userId)
      const judge = await filterJudge(store, userId, 'thread', now())
      const judged = judge?.(post)
      return {
        post: judged && !judged.hide && judged.filtered.length > 0 ? { ...post, filtered: judged.filtered } : post,
      }
    },

    /** Who likes the post, the most recent like first. */
    likers: (postId: string, page: PageRequest, viewerId: string | undefined) =>
      peopleOf(postId, page, viewerId, 'listLikers'),

    /** Who reposts the post, the most recent repost first. */
    reposters: (postId: string, page: PageRequest, viewerId: string | undefined) =>
      peopleOf(postId, page, viewerId, 'listReposters'),

    /** Someone's own posts, which the people they block cannot read; those who block or mute them can, by asking. */
    async byUser(username: string, { limit, cursor, filter }: UserPostsQuery, asked: Reader) {
      const page = { limit, cursor }
      const { user, reader } = await profileOf(username, asked)
      const media = filter === 'media'
      const audience = shownTo(reader.userId)
      const [pinned, { items, nextCursor }] = await Promise.all([
        media ? [] : store.listPinned(user._id, audience),
        store.listPosts({
          sort: 'latest',
          authorIds: [user._id],
          ...(media ? { media } : {}),
          ...unpagedCap(page),
          audience,
        }),
      ])
      // Pinned posts lead the first page of the Posts tab and are left out of its every page, so none shows
      // twice; the Media tab lists posts in their order alone.
      const first = cursor === undefined ? pinned : []
      const rest = media ? items : items.filter((post) => post.pinnedAt === undefined)
      const posts = await listViews([...first, ...rest], reader, 'account')
      return paged(page) ? { posts, nextCursor } : { posts }
    },

    /**
     * Someone's posts as their profile shows them to the reader, in order of time alone, pinned ones in
     * their place: the Mastodon API's account timeline, which reads either way.
     */
    async byAuthor(
      username: string,
      { limit, cursor, sort }: PageRequest & { sort: 'latest' | 'oldest' },
      asked: Reader,
    ) {
      const { user, reader } = await profileOf(username, asked)
      const page = { limit: limit ?? DEFAULT_PAGE, cursor }
      const { items, nextCursor } = await store.listPosts({
        sort,
        authorIds: [user._id],
        ...page,
        audience: shownTo(reader.userId),
      })
      return { posts: await listViews(items, reader, 'account'), nextCursor }
    },

    /**
     * The posts someone likes, newest like first, without those of anyone hidden from the reader or that
     * the reader may not read.
     */
    async likedBy(username: string, { limit, cursor }: PageRequest, asked: Reader) {
      const { user, reader } = await profileOf(username, asked)
      const hide = reader.hidden.people
      const audience = readableBy(reader.userId)
      const { items, nextCursor } = await store.listLikedPosts(user._id, { limit, cursor, hide, audience })
      return { posts: await postViews(store, items, reader), nextCursor }
    },

    /** The home timeline: my posts and those of everyone I follow, each as its audience lets me read it. */
    async feed(userId: string, { sort = 'latest', limit, cursor }: FeedQuery, asked: Reader) {
      const reader = await seeing(store, asked, now())
      // The people of the reader's exclusive lists are read in those lists, not here (DECISIONS §15).
      const listed = await exclusiveMembers(store, userId)
      const people = listed.length === 0 ? reader.hidden.people : [...new Set([...reader.hidden.people, ...listed])]
      const page = await homeFeed(
        store,
        userId,
        { sort, limit, cursor },
        { ...reader, hidden: { ...reader.hidden, people } },
      )
      return { ...page, posts: await applyFilters(store, userId, 'home', page.posts, reader.at) }
    },

    /**
     * A list's timeline (DECISIONS §15): the posts of its people whom the owner follows, as their home
     * feed shows them, newest first or oldest first, with the filters of the home feed.
     */
    async byList(
      userId: string,
      listId: string,
      { limit, cursor, sort }: PageRequest & { sort: 'latest' | 'oldest' },
      asked: Reader,
    ) {
      const list = (await store.listLists(userId)).find((each) => each._id === listId)
      if (!list) throw notFound(MSG.listNotFound)
      const [authorIds, reader] = await Promise.all([membersOf(store, list), seeing(store, asked, now())])
      const page = { limit: limit ?? DEFAULT_PAGE, cursor }
      if (authorIds.length === 0) return { posts: [], nextCursor: null }
      const { items, nextCursor } = await store.listPosts({
        sort,
        authorIds,
        ...page,
        hide: reader.hidden.people,
        audience: shownTo(userId),
      })
      return { posts: await listViews(items, reader, 'home'), nextCursor }
    },

    /**
     * The post as the reader reads it in one context (DECISIONS §15): with the warnings of their filters of
     * it, or undefined when one of them hides it or they may not read it.
     */
    async readIn(postId: string, userId: string, context: FilterContext) {
      const found = await view(postId, userId).catch(() => undefined)
      if (!found) return undefined
      const [post] = await applyFilters(store, userId, context, [found.post], now())
      return post
    },

    async create(userId: string, data: PostData) {
      const at = now().toISOString()
      const drawn = await draft(userId, data, at)
      await store.transaction((tx) => publishDrawn(tx, userId, data, drawn, at))
      return view(drawn._id, userId)
    },

    /** Checks a post that is to be published later (scheduled-posts.ts) as `create` would now; answers its images. */
    async check(userId: string, data: PostData) {
      const drawn = await draft(userId, data, now().toISOString())
      return postImagesOf(drawn).map(({ url, alt }) => (alt ? { url, alt } : { url }))
    },

    /** A scheduled post's time come (scheduled-posts.ts): drawn at `at`, then published in the caller's transaction. */
    draft,
    publishDrawn,

    /** Every version of the post, the first first and the current one last, to whoever may read it. */
    async history(postId: string, userId: string | undefined) {
      await view(postId, userId)
      const post = await mustGetPost(store, postId)
      return { versions: historyOf(post, await store.listPostVersions(post._id)) }
    },

    async edit(userId: string, postId: string, data: PostData) {
      await store.transaction(async (tx) => {
        const post = await tx.lockPost(postId)
        if (!post) throw notFound(MSG.postNotFound)
        if (post.authorId !== userId) throw badRequest(MSG.editPostNotOwner)
        checkPostTexts(data)
        const mediaUrl = editedValue(data.mediaUrl, data.image ?? data.imageUrl, post.mediaUrl) ?? post.mediaUrl
        // A new first image starts without the old one's description unless one is sent with it; the
        // others stay as they were, and all go when the first does.
        const keptAlt = mediaUrl === post.mediaUrl ? post.mediaAlt : undefined
        // A client that sends the whole post back repeats `media` as it read it: then its other fields say the edit.
        const asked =
          data.media && !repeatsImages(data.media, post)
            ? data.media
            : [...imagesOfUrl(mediaUrl, data.mediaAlt ?? keptAlt), ...(mediaUrl === '' ? [] : (post.moreMedia ?? []))]
        const media = await checkMedia(data.content ?? post.content, asked, sizeOf)
        // A card stays while the text links where it did; another link's card is fetched after the edit.
        const sameLink = cardLinkOf(post.content)?.text === cardLinkOf(media.content)?.text
        const spoilerText = (data.spoilerText ?? post.spoilerText) || undefined
        const changes: PostChanges = sameLink ? { ...media, spoilerText } : { ...media, spoilerText, card: undefined }
        const card = sameLink ? (post.card ?? null) : null
        const at = now().toISOString()
        await keepVersion(tx, post)
        await tx.updatePost(post._id, changes, at)
        // The images and card it showed before go, unless it still shows them or something else does.
        const shown = new Set(imageUrlsOf(media))
        const dropped = imageUrlsOf(post).filter((url) => !shown.has(url))
        await dropUploads(tx, [...dropped, card ? '' : post.card?.image], at)
        const { mediaAlt, mediaWidth, mediaHeight, moreMedia, card: _card, spoilerText: _spoiler, ...text } = changes
        tx.emit({
          name: 'post.updated',
          data: {
            postId: post._id,
            ...text,
            ...(mediaAlt !== undefined ? { mediaAlt } : {}),
            ...(mediaWidth !== undefined && mediaHeight !== undefined ? { mediaWidth, mediaHeight } : {}),
            media: postImagesOf({ ...media, moreMedia }),
            ...spoilerOf(spoilerText),
            updatedAt: at,
            editedAt: at,
            card,
          },
          by: userId,
          audience: audienceOf(post),
        })
        await federate(tx, post, 'update', at)
        const me = await summaryRecordOf(tx, userId)
        const texts = { before: post.content, after: changes.content }
        const cardJob = linkCards?.jobFor(post._id, texts.after, texts.before)
        if (cardJob) await tx.enqueueJob(cardJob, at)
        // A direct post's audience was fixed when it was written: an edit mentions nobody new into it.
        if (me && visibilityOf(post) !== 'direct')
          await syncMentions(
            tx,
            me,
            texts,
            { post: { ...post, content: changes.content, mediaUrl: changes.mediaUrl } },
            at,
          )
      })
      return view(postId, userId)
    },

    /** Deletes the post, which also takes it out of every bookmark list. */
    async remove(userId: string, postId: string) {
      await store.transaction(async (tx) => {
        const post = await tx.lockPost(postId)
        if (!post) throw notFound(MSG.postNotFound)
        if (post.authorId !== userId) throw badRequest(MSG.deletePostNotOwner)
        await deletePostIn(tx, post, now())
        await federate(tx, post, 'delete', now().toISOString())
      })
      return {}
    },

    like: (userId: string, postId: string) => react(userId, postId, true),
    /** "Dislike" is unlike: it takes back a like. */
    dislike: (userId: string, postId: string) => react(userId, postId, false),
    repost: (userId: string, postId: string) => repost(userId, postId, true),
    unrepost: (userId: string, postId: string) => repost(userId, postId, false),
    pin: (userId: string, postId: string) => pin(userId, postId, true),
    unpin: (userId: string, postId: string) => pin(userId, postId, false),
  }
}

export type PostsService = ReturnType<typeof createPostsService>
