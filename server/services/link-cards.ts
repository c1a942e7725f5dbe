import { LRUCache } from 'lru-cache'
import { parseRichText } from '../../common/text-rules.js'
import type { ClaimedJob, LinkCardRecord, NewJob, StoreTx } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { newJob, type JobRun } from './jobs.js'
import { decodePage, summarisePage } from './link-card-parse.js'
import { LinkFetchError, type LinkFetcher } from './link-fetch.js'
import { dropUploads } from './media-deletion.js'
import { postViews } from './post-views.js'
import { audienceOf } from './audience-events.js'

/**
 * Link cards (DECISIONS §10): the first https link of a post gets a preview, fetched after the post is
 * saved, so a create or an edit answers at once and the card follows as a `post.updated` event. The
 * write enqueues a `link-card` job in its own transaction (jobFor); the job's run fetches the page and
 * stores the card in a transaction that also ends the job, so a card is stored once however often its
 * job runs, and it reaches every instance's streams through the event log. A link is fetched once while
 * it is cached, its image too; a page that cannot be shown is remembered for a while, so a post
 * repeating a dead link does not fetch it again, and its post keeps `card: null`. A fetch that failed on
 * the way (a timeout, the network, DNS) throws, and the queue tries it again later.
 */

/** A page's body, and a card image's, is read up to this many bytes. */
const MAX_PAGE_BYTES = 1024 * 1024
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
  /** Whether an image saved earlier is still stored: a cached card's may have gone with the last post that showed it. */
  hasImage: (url: string) => Promise<boolean>
  /** Why a card could not be made: a refusal of the fetcher (said in the message), or an error with its stack. */
  log: (message: string, error?: unknown) => void
}

/** A refusal is a page that cannot be shown, said in a line; anything else is a fault, logged whole. */
function report(log: LinkCardsDeps['log'], what: string, error: unknown): void {
  if (error instanceof LinkFetchError) log(`${what}: ${error.reason}, ${error.message}`)
  else log(what, error)
}

const isImageType = (type: string) => /^image\/(jpeg|png|gif|webp)$/.test(type)

/** Failures on the way to a page, which a later try may not meet. */
const TRANSIENT = new Set(['timeout', 'network', 'unresolved'])
const isTransient = (error: unknown) => error instanceof LinkFetchError && TRANSIENT.has(error.reason)

export function createLinkCards({ store, now, fetcher, saveImage, hasImage, log }: LinkCardsDeps) {
  const cache = new LRUCache<string, Promise<CardContent | null>>({ max: CACHED_LINKS, ttl: CARD_TTL_MS })

  /** The page's image stored here, or '' when it has none or it cannot be fetched or decoded. */
  async function imageOf(imageUrl: string, signal: AbortSignal): Promise<string> {
    if (imageUrl === '') return ''
    try {
      const image = await fetcher.fetch(imageUrl, { accept: isImageType, maxBytes: MAX_PAGE_BYTES, signal })
      return await saveImage(image.body)
    } catch (error) {
      report(log, `link card image ${imageUrl} not used`, error)
      return ''
    }
  }

  /** What a card shows of the page at `href`; null when there is nothing to show. */
  async function fetchCard(href: string, signal: AbortSignal): Promise<CardContent | null> {
    const page = await fetcher.fetch(href, { accept: (type) => type === 'text/html', maxBytes: MAX_PAGE_BYTES, signal })
    const summary = summarisePage(decodePage(page.body, page.charset), page.url)
    if (summary.title === '' && summary.description === '' && summary.imageUrl === '') return null
    return { title: summary.title, description: summary.description, image: await imageOf(summary.imageUrl, signal) }
  }

  /** The card, or null for a page that cannot be shown; rejects when it may be fetched later (isTransient). */
  function cardFor(href: string, signal: AbortSignal): Promise<CardContent | null> {
    const cached = cache.get(href)
    if (cached) return cached
    const card = fetchCard(href, signal).catch((error: unknown) => {
      report(log, `link card for ${href} not made`, error)
      if (signal.aborted || isTransient(error)) throw error
      return null
    })
    cache.set(href, card)
    // A page that cannot be shown is tried again sooner than a card is refreshed; one that may be fetched
    // later, and one cut short by shutdown, is not kept at all.
    card.then(
      (content) => {
        if (content === null && cache.get(href) === card) cache.set(href, card, { ttl: FAILURE_TTL_MS })
      },
      () => {
        if (cache.get(href) === card) cache.delete(href)
      },
    )
    return card
  }

  /** The card of a cached page, unless its image has gone since (with the last post that showed it): then fetched again. */
  async function freshCardFor(href: string, signal: AbortSignal): Promise<CardContent | null> {
    const content = await cardFor(href, signal)
    if (!content?.image || (await hasImage(content.image))) return content
    cache.delete(href)
    return cardFor(href, signal)
  }

  /**
   * Stores the card and tells every stream, unless the post is gone or its text now links elsewhere;
   * the image of the card it replaces, or of this one when it is not stored, goes unless something shows it.
   */
  async function attach(tx: StoreTx, postId: string, link: string, content: CardContent): Promise<void> {
    const at = now().toISOString()
    const post = await tx.lockPost(postId)
    if (!post || cardLinkOf(post.content)?.text !== link) {
      await dropUploads(tx, [content.image], at)
      return
    }
    const card: LinkCardRecord = { url: link, ...content }
    await tx.setPostCard(postId, card)
    if (post.card?.image !== card.image) await dropUploads(tx, [post.card?.image], at)
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
      audience: audienceOf(post),
    })
  }

  return {
    /**
     * The job that makes the card of a post saved with `content`, to enqueue in the same transaction;
     * none when it has no https link, or when `previous`, an edit's text before it, linked the same (the
     * card stays as it is).
     */
    jobFor(postId: string, content: string, previous?: string): NewJob | undefined {
      const link = cardLinkOf(content)
      if (!link) return undefined
      if (previous !== undefined && cardLinkOf(previous)?.text === link.text) return undefined
      return newJob('link-card', { postId, link: link.text, href: link.href }, now().toISOString())
    },

    /** Runs a `link-card` job: the card is stored, and the job ends, in one transaction. */
    async run(job: ClaimedJob, run: JobRun): Promise<void> {
      const { postId, link, href } = job.payload as { postId: string; link: string; href: string }
      const content = await freshCardFor(href, run.signal)
      if (content === null) return
      await store.transaction(async (tx) => {
        await run.complete(tx)
        await attach(tx, postId, link, content)
      })
    },
  }
}

export type LinkCards = ReturnType<typeof createLinkCards>
