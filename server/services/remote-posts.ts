import { keepVersion } from './post-history.js'
import { randomUUID } from 'node:crypto'
import sanitizeHtml from 'sanitize-html'
import type { Visibility } from '../../common/audience.js'
import { LIMITS } from '../../common/limits.js'
import type { MediaRecord, PostRecord, StoreTx } from '../store/types.js'
import { audienceOf } from './audience-events.js'
import { checkPostTexts } from './content-rules.js'
import { reachable, sendDirect } from './conversations.js'
import type { ServiceDeps } from './deps.js'
import { suspendedAt } from './moderation-access.js'
import { mentionedIn } from './notifier.js'
import { UNTOUCHED, publishIn } from './posts.js'
import { htmlToText } from './remote-people.js'
import { deletePostIn } from './removals.js'
import { isValidMediaUrl } from './urls.js'
import { postImagesOf } from './post-views.js'
import { summaryRecordOf } from './views.js'

/**
 * Posts both ways with other servers (DECISIONS §14). Out: a post written, edited or deleted here queues
 * one delivery job, committed with the write, that federation/ turns into the activity for the author's
 * remote followers and the remote people it addresses. In: a note a remote person's server sends becomes
 * a post of theirs here, with the same rules, events and notifications as a local one; only its author
 * changes or deletes it.
 */

/** What a post's delivery job sends. */
export type PostSend = 'create' | 'update' | 'delete'

/** What a delivery job about a post carries: enough to send its Delete once it is gone. */
export interface PostDelivery {
  send: PostSend
  postId: string
  authorId: string
  visibility: Visibility
  /** The remote people it addresses beyond the author's followers, by id, joined by commas. */
  remoteIds: string
}

/** A note as federation/ reads it, before Chirp keeps it. */
export interface IncomingNote {
  noteId: string
  /** Its page on its server; the note's id when it names none. */
  url: string
  /** Its content, HTML as its server sent it. */
  html: string
  /** Its content warning. */
  summary?: string
  published?: string
  /** Its images in order, each with its description and size when the note gives them. */
  images: { url: string; alt?: string; width?: number; height?: number }[]
  visibility: Visibility
  /** The people of this server it addresses or mentions, by id. */
  addressed: string[]
}

/** What remote HTML keeps (DECISIONS §14): links, paragraphs, line breaks, and the spans of mentions and hashtags. */
const SAFE_HTML: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'a', 'span'],
  allowedAttributes: { a: ['href', 'class', 'rel'], span: ['class'] },
  allowedClasses: { a: ['mention', 'hashtag', 'u-url'], span: ['h-card', 'invisible', 'ellipsis'] },
  allowedSchemes: ['https', 'http'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }) },
}

/** Remote HTML as Chirp keeps it: only the safe subset above, every other tag and attribute dropped. */
export const safeHtml = (html: string) => sanitizeHtml(html, SAFE_HTML)

/** At most `max` characters (code points), cut with an ellipsis. */
function cut(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

/** Whether a note's image dimension is one Chirp keeps: a whole number of pixels. */
const sizeOk = (value: number | undefined): value is number =>
  value !== undefined && Number.isSafeInteger(value) && value > 0

/** The remote people among `ids`. */
async function remoteAmong(tx: StoreTx, ids: readonly string[]) {
  const people = await Promise.all(ids.map((id) => tx.getAccount(id)))
  return people.flatMap((person) => (person?.remote ? [person._id] : []))
}

export function createRemotePosts({ store, now, federating }: ServiceDeps & { federating: boolean }) {
  /** The remote person `authorId` names, inside the transaction, unless suspended here. */
  async function authorIn(tx: StoreTx, authorId: string, at: string) {
    const author = await tx.getAccount(authorId)
    return author?.remote && !suspendedAt(author.suspension, at) ? author : undefined
  }

  /**
   * The post's text and image fields as a note gives them, under Chirp's rules (text rules and limits): its
   * first 4 images with a URL Chirp shows (any more are dropped), each description cut to its length.
   */
  function textsOf(note: IncomingNote) {
    const html = safeHtml(note.html)
    const content = cut(htmlToText(html), LIMITS.postContent)
    const spoilerText = note.summary ? cut(htmlToText(note.summary), LIMITS.spoilerText) : ''
    const images: MediaRecord[] = note.images
      .filter((image) => image.url !== '' && isValidMediaUrl(image.url))
      .slice(0, LIMITS.postImages)
      .map(({ url, alt, width, height }) => ({
        url,
        ...(alt ? { alt: cut(alt, LIMITS.mediaAlt) } : {}),
        ...(sizeOk(width) && sizeOk(height) ? { width, height } : {}),
      }))
    checkPostTexts({ content, spoilerText })
    for (const { alt } of images) if (alt) checkPostTexts({ mediaAlt: alt })
    const [first, ...more] = images
    return {
      html,
      content,
      mediaUrl: first?.url ?? '',
      type: first ? 'image' : '',
      ...(first?.alt ? { mediaAlt: first.alt } : {}),
      ...(first?.width !== undefined ? { mediaWidth: first.width, mediaHeight: first.height } : {}),
      ...(more.length > 0 ? { moreMedia: more } : {}),
      ...(spoilerText ? { spoilerText } : {}),
    }
  }

  /** The people a post's text mentions, as its note names them. */
  async function mentionedBy(post: Pick<PostRecord, 'content'>) {
    const users = [...(await mentionedIn(store, post.content)).values()].filter((user) => !user.pending)
    return users.map((user) => ({
      id: user._id,
      username: user.username,
      ...(user.remote ? { remote: user.remote } : {}),
    }))
  }

  return {
    mentionedBy,

    /**
     * Queues the delivery of a post written, edited or deleted here, in the write's transaction: to the
     * author's remote followers (but for a direct post) and the remote people it addresses. Nothing is
     * queued while federation is off, nor for a post of another server's.
     */
    async federate(
      tx: StoreTx,
      post: Pick<PostRecord, '_id' | 'authorId' | 'visibility' | 'addressed' | 'remote'>,
      send: PostSend,
      at: string,
    ) {
      if (!federating || post.remote) return
      const visibility = post.visibility ?? 'public'
      const remoteIds = await remoteAmong(tx, post.addressed ?? [])
      const payload: PostDelivery = {
        send,
        postId: post._id,
        authorId: post.authorId,
        visibility,
        remoteIds: remoteIds.join(','),
      }
      await tx.enqueueJob({ _id: randomUUID(), kind: 'delivery', payload: { ...payload }, runAt: at }, at)
    },

    /** The post a delivery names as it now is, and the remote people it goes to besides those addressed. */
    async outgoing(delivery: PostDelivery) {
      const [post, author] = await Promise.all([store.getPost(delivery.postId), store.getUser(delivery.authorId)])
      const followers = delivery.visibility === 'direct' || !author ? [] : author.followers
      const people = await Promise.all(
        [...new Set([...followers, ...delivery.remoteIds.split(',').filter(Boolean)])].map((id) =>
          store.getAccount(id),
        ),
      )
      const at = now().toISOString()
      const recipients = people.flatMap((person) =>
        person?.remote && !suspendedAt(person.suspension, at) ? [{ id: person._id, ...person.remote }] : [],
      )
      const mentioned = post ? await mentionedBy(post) : []
      return { post: post?.authorId === delivery.authorId ? post : undefined, recipients, mentioned }
    },

    /**
     * A remote person's new note: kept once as a post of theirs, reaching their followers' home feeds and
     * live screens, and the people it addresses as a local post would. Nothing is kept from someone
     * suspended here, and a note kept already is not kept again.
     */
    async received(authorId: string, note: IncomingNote) {
      const texts = textsOf(note)
      await store.transaction(async (tx) => {
        const at = now().toISOString()
        const author = await authorIn(tx, authorId, at)
        if (!author || (await tx.getPostByNote(note.noteId))) return
        const { html, ...fields } = texts
        const createdAt = note.published && Date.parse(note.published) <= Date.parse(at) ? note.published : at
        const drawn: PostRecord = {
          _id: randomUUID(),
          authorId,
          ...fields,
          createdAt: new Date(createdAt).toISOString(),
          updatedAt: at,
          ...UNTOUCHED,
          remote: { noteId: note.noteId, url: note.url, html },
        }
        const me = await summaryRecordOf(tx, authorId)
        if (!me) return
        if (note.visibility === 'direct') {
          const recipients = await reachable(tx, authorId, note.addressed, at)
          if (recipients.length === 0) return
          const conversationId = await tx.openConversation([authorId, ...recipients], randomUUID(), at)
          if (conversationId === undefined) return
          await sendDirect(tx, me, { ...drawn, visibility: 'direct' }, { conversationId, recipients }, new Date(at))
          return
        }
        const addressed = note.addressed.filter((id) => id !== authorId)
        const record: PostRecord = {
          ...drawn,
          ...(note.visibility === 'public' ? {} : { visibility: note.visibility }),
          ...(addressed.length > 0 ? { addressed } : {}),
        }
        await publishIn(tx, me, record, at)
      })
    },

    /** A remote person's edit of their note: applied only to a post of theirs, its audience kept. */
    async updated(authorId: string, note: IncomingNote) {
      const texts = textsOf(note)
      await store.transaction(async (tx) => {
        const at = now().toISOString()
        const kept = await tx.getPostByNote(note.noteId)
        if (!kept || kept.authorId !== authorId || !(await authorIn(tx, authorId, at))) return
        const { html, content, mediaUrl, type, mediaAlt, mediaWidth, mediaHeight, moreMedia, spoilerText } = texts
        const remote = { noteId: note.noteId, url: note.url, html }
        await keepVersion(tx, kept)
        const images = { mediaUrl, mediaAlt, mediaWidth, mediaHeight, moreMedia }
        await tx.updatePost(kept._id, { content, type, ...images, spoilerText, card: undefined, remote }, at)
        tx.emit({
          name: 'post.updated',
          data: {
            postId: kept._id,
            content,
            mediaUrl,
            type,
            ...(mediaAlt !== undefined ? { mediaAlt } : {}),
            ...(mediaWidth !== undefined && mediaHeight !== undefined ? { mediaWidth, mediaHeight } : {}),
            media: postImagesOf(images),
            ...(spoilerText ? { spoilerText } : {}),
            updatedAt: at,
            editedAt: at,
            card: null,
          },
          by: authorId,
          audience: audienceOf(kept),
        })
      })
    },

    /** A remote person's deletion of their note: the post goes, only when it is theirs. */
    async deleted(authorId: string, noteId: string) {
      await store.transaction(async (tx) => {
        const kept = await tx.getPostByNote(noteId)
        if (!kept || kept.authorId !== authorId) return
        const post = await tx.lockPost(kept._id)
        if (post) await deletePostIn(tx, post, now())
      })
    },
  }
}

export type RemotePosts = ReturnType<typeof createRemotePosts>
