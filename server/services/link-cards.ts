import { LRUCache } from 'lru-cache'
import { parseRichText } from '../../common/text-rules.js'
import type { LinkCardRecord, StoreTx } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { decodePage, summarisePage } from './link-card-parse.js'
import { LinkFetchError, type LinkFetcher } from './link-fetch.js'
import { postViews } from './post-views.js'

/**
 * Link cards (DECISIONS §10): the first https link of a post gets a preview, fetched after the post is
 * saved, so a create or an edit answers at once and the card follows as a `post.updated` event, written
 * to the event log in the transaction that stores it, so it reaches the streams of every instance. A link
 * is fetched once while it is cached, its image too; a failure is remembered for a while, so a post
 * repeating a dead link does not fetch it again. At most MAX_ACTIVE fetches run at a time, MAX_WAITING
 * wait behind them, and a link past those gets no card.
 */

/** A page's body, and a card image's, is read up to this many bytes. */
const MAX_PAGE_BYTES = 1024 * 1024
const MAX_ACTIVE = 4
const MAX_WAITING = 200
const CACHED_LINKS = 2000
const CARD_TTL_MS = 60 * 60 * 1000
const FAILURE_TTL_MS = 10 * 60 * 1000

/** A card without its `url`, which is each post's own spelling of the link. */
type CardContent = Omit<LinkCardRecord, 'url'>

/** The link a post's card is for: its first https link, as written and as an address. */
export function cardLinkOf(content: string): { text: string; href: string } | undefined {
  for (const segment of parseRichText(content)) {
    if (segment.kind === 'link' && segment.href.startsWith('https:')) return { text: segment.text, href: segment.href }
  }
  return undefined
}

export interface LinkCardsDeps extends ServiceDeps {
  fetcher: LinkFetcher
  /** Stores a fetched image as an upload (re-encoded): its /media/ path; rejects when the bytes are no image. */
  saveImage: (bytes: Buffer) => Promise<string>
  /** Why a card could not be made: a refusal of the fetcher (said in the message), or an error with its stack. */
  log: (message: string, error?: unknown) => void
}

/** A refusal is a page that cannot be shown, said in a line; anything else is a fault, logged whole. */
function report(log: LinkCardsDeps['log'], what: string, error: unknown): void {
  if (error instanceof LinkFetchError) log(`${what}: ${error.reason}, ${error.message}`)
  else log(what, error)
}

const isImageType = (type: string) => /^image\/(jpeg|png|gif|webp)$/.test(type)

export function createLinkCards({ store, fetcher, saveImage, log }: LinkCardsDeps) {
  const cache = new LRUCache<string, Promise<CardContent | null>>({ max: CACHED_LINKS, ttl: CARD_TTL_MS })
  const shutdown = new AbortController()
  const running = new Set<Promise<void>>()
  const waiting: (() => void)[] = []
  let active = 0

  async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (active >= MAX_ACTIVE) await new Promise<void>((resolve) => waiting.push(resolve))
    active++
    try {
      return await work()
    } finally {
      active--
      waiting.shift()?.()
    }
  }

  /** The page's image stored here, or '' when it has none or it cannot be fetched or decoded. */
  async function imageOf(imageUrl: string): Promise<string> {
    if (imageUrl === '') return ''
    try {
      const image = await fetcher.fetch(imageUrl, {
        accept: isImageType,
        maxBytes: MAX_PAGE_BYTES,
        signal: shutdown.signal,
      })
      return await saveImage(image.body)
    } catch (error) {
      report(log, `link card image ${imageUrl} not used`, error)
      return ''
    }
  }

  /** What a card shows of the page at `href`; null when there is nothing to show or the page cannot be read. */
  async function fetchCard(href: string): Promise<CardContent | null> {
    // One that waited its turn past shutdown starts nothing.
    if (shutdown.signal.aborted) return null
    const page = await fetcher.fetch(href, {
      accept: (type) => type === 'text/html',
      maxBytes: MAX_PAGE_BYTES,
      signal: shutdown.signal,
    })
    const summary = summarisePage(decodePage(page.body, page.charset), page.url)
    if (summary.title === '' && summary.description === '' && summary.imageUrl === '') return null
    return { title: summary.title, description: summary.description, image: await imageOf(summary.imageUrl) }
  }

  function cardFor(href: string): Promise<CardContent | null> {
    const cached = cache.get(href)
    if (cached) return cached
    const card = inTurn(() => fetchCard(href)).catch((error: unknown) => {
      report(log, `link card for ${href} not made`, error)
      return null
    })
    cache.set(href, card)
    // A failure is tried again sooner than a card is refreshed; one that ended in shutdown, on the next start.
    void card.then((content) => {
      if (shutdown.signal.aborted) cache.delete(href)
      else if (content === null && cache.get(href) === card) cache.set(href, card, { ttl: FAILURE_TTL_MS })
    })
    return card
  }

  /** Stores the card and tells every stream, unless the post is gone or its text now links elsewhere. */
  async function attach(tx: StoreTx, postId: string, link: { text: string }, content: CardContent): Promise<void> {
    const post = await tx.lockPost(postId)
    if (!post || cardLinkOf(post.content)?.text !== link.text) return
    const card: LinkCardRecord = { url: link.text, ...content }
    await tx.setPostCard(postId, card)
    const [record] = await tx.getPosts([postId])
    if (!record) return
    const [view] = await postViews(tx, [record], { userId: undefined, compact: true })
    if (!view) return
    tx.emit({
      name: 'post.updated',
      data: {
        postId,
        content: view.content,
        mediaUrl: view.mediaUrl,
        type: view.type,
        ...(view.mediaAlt !== undefined ? { mediaAlt: view.mediaAlt } : {}),
        ...(view.mediaWidth !== undefined && view.mediaHeight !== undefined
          ? { mediaWidth: view.mediaWidth, mediaHeight: view.mediaHeight }
          : {}),
        updatedAt: view.updatedAt,
        ...(view.editedAt !== undefined ? { editedAt: view.editedAt } : {}),
        card,
        post: view,
      },
      by: post.authorId,
    })
  }

  async function makeCard(postId: string, link: { text: string; href: string }): Promise<void> {
    const content = await cardFor(link.href)
    if (content === null || shutdown.signal.aborted) return
    await store.transaction((tx) => attach(tx, postId, link, content))
  }

  return {
    /**
     * Starts making the card of a post just saved with `content`, unless it has no https link; `previous`,
     * an edit's text before it, when it linked the same, leaves the card as it is.
     */
    schedule(postId: string, content: string, previous?: string): void {
      const link = cardLinkOf(content)
      if (!link || shutdown.signal.aborted) return
      if (previous !== undefined && cardLinkOf(previous)?.text === link.text) return
      if (active >= MAX_ACTIVE && waiting.length >= MAX_WAITING && !cache.has(link.href)) {
        log(`link card for ${link.href} skipped: too many link cards are being made`)
        return
      }
      const task = makeCard(postId, link)
        .catch((error: unknown) => report(log, `link card of post ${postId} not stored`, error))
        .finally(() => running.delete(task))
      running.add(task)
    },

    /** Stops every fetch and waits for the cards being stored, before the store closes. */
    async close(): Promise<void> {
      shutdown.abort()
      await Promise.allSettled([...running])
    },
  }
}

export type LinkCards = ReturnType<typeof createLinkCards>
