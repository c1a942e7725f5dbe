import {
  Create,
  Delete,
  Document,
  Hashtag,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  Tombstone,
  Update,
  type Context,
  type Recipient,
} from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import type { Visibility } from '../../common/audience.js'
import { parseRichText } from '../../common/text-rules.js'
import { PermanentJobError } from '../services/jobs.js'
import type { PostDelivery, PostSend } from '../services/remote-posts.js'
import type { JobPayload, PostRecord, RemoteActorRecord } from '../store/types.js'
import { usernameKey } from '../usernames.js'
import { imageTypeOf } from './actors.js'
import type { ChirpFederationData } from './context.js'

type Ctx = Context<ChirpFederationData>

/** A person a post mentions: one of this server, or of another (`remote`). */
export interface Mentioned {
  id: string
  username: string
  remote?: Pick<RemoteActorRecord, 'actorId' | 'url'>
}

/** Where a post's note lives; its Create is the same address with `#create`. */
export const noteUri = (ctx: Ctx, post: Pick<PostRecord, '_id'>) => ctx.getObjectUri(Note, { id: post._id })

/**
 * A post's images (up to 4) as a note's attachments, in order: each a Document with its media type when its
 * name tells it, its description as `name`, and its size when known.
 */
function attachmentsOf(post: PostRecord, origin: string): Document[] {
  if (post.mediaUrl === '') return []
  const first = { url: post.mediaUrl, alt: post.mediaAlt, width: post.mediaWidth, height: post.mediaHeight }
  return [first, ...(post.moreMedia ?? [])].flatMap(({ url, alt, width, height }) => {
    if (!URL.canParse(url, origin)) return []
    const absolute = new URL(url, origin)
    const mediaType = imageTypeOf(absolute)
    return [
      new Document({
        url: absolute,
        ...(mediaType ? { mediaType } : {}),
        ...(alt ? { name: alt } : {}),
        ...(width !== undefined ? { width } : {}),
        ...(height !== undefined ? { height } : {}),
      }),
    ]
  })
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

const actorOf = (ctx: Ctx, person: Mentioned) =>
  person.remote ? new URL(person.remote.actorId) : ctx.getActorUri(person.id)
const pageOf = (ctx: Ctx, person: Mentioned) =>
  person.remote ? person.remote.url : new URL(`/profile/${encodeURIComponent(person.username)}`, ctx.origin).href
const handleOf = (ctx: Ctx, person: Mentioned) =>
  person.remote ? `@${person.username}` : `@${person.username}@${new URL(ctx.origin).host}`
const tagPage = (ctx: Ctx, tag: string) => new URL(`/tag/${encodeURIComponent(tag)}`, ctx.origin)

/**
 * A post's text as the HTML of a note: escaped, its paragraphs and lines kept, its links, the people it
 * mentions and its hashtags as links, as Mastodon writes them.
 */
export function contentHtml(ctx: Ctx, text: string, mentioned: readonly Mentioned[]): string {
  const byName = new Map(mentioned.map((person) => [usernameKey(person.username), person]))
  const inline = (part: string) =>
    parseRichText(part)
      .map((segment) => {
        if (segment.kind === 'link')
          return `<a href="${escape(segment.href)}" rel="nofollow noopener noreferrer">${escape(segment.text)}</a>`
        if (segment.kind === 'tag')
          return `<a href="${escape(tagPage(ctx, segment.tag).href)}" class="mention hashtag" rel="tag">#<span>${escape(segment.tag)}</span></a>`
        if (segment.kind === 'mention') {
          const person = segment.candidates.map((name) => byName.get(usernameKey(name))).find(Boolean)
          if (person)
            return `<span class="h-card"><a href="${escape(pageOf(ctx, person))}" class="u-url mention">@<span>${escape(segment.username)}</span></a></span>`
        }
        return escape(segment.text).replace(/\n/g, '<br>')
      })
      .join('')
  return text
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join('')
}

/** Who a note of `visibility` is addressed to (DECISIONS §12): `to` and `cc`. */
function addressing(ctx: Ctx, authorId: string, visibility: Visibility, mentioned: readonly Mentioned[]) {
  const followers = ctx.getFollowersUri(authorId)
  const people = mentioned.map((person) => actorOf(ctx, person))
  if (visibility === 'public') return { tos: [PUBLIC_COLLECTION], ccs: [followers, ...people] }
  if (visibility === 'unlisted') return { tos: [followers], ccs: [PUBLIC_COLLECTION, ...people] }
  if (visibility === 'followers') return { tos: [followers], ccs: people }
  return { tos: people, ccs: [] }
}

/**
 * A post as a Note, addressed by its audience (DECISIONS §12), its content as HTML with its mentions and
 * hashtags as tags, its image with its description, its content warning as `summary`.
 */
export function noteOf(ctx: Ctx, post: PostRecord, mentioned: readonly Mentioned[]): Note {
  const visibility = post.visibility ?? 'public'
  const tags = [
    ...mentioned.map((person) => new Mention({ href: actorOf(ctx, person), name: handleOf(ctx, person) })),
    ...[
      ...new Set(parseRichText(post.content).flatMap((segment) => (segment.kind === 'tag' ? [segment.tag] : []))),
    ].map((tag) => new Hashtag({ href: tagPage(ctx, tag), name: `#${tag}` })),
  ]
  return new Note({
    id: noteUri(ctx, post),
    attribution: ctx.getActorUri(post.authorId),
    ...addressing(ctx, post.authorId, visibility, mentioned),
    content: contentHtml(ctx, post.content, mentioned),
    url: new URL(`/post-detail/${encodeURIComponent(post._id)}`, ctx.origin),
    published: Temporal.Instant.from(post.createdAt),
    ...(post.editedAt ? { updated: Temporal.Instant.from(post.editedAt) } : {}),
    ...(post.spoilerText ? { summary: post.spoilerText, sensitive: true } : {}),
    attachments: attachmentsOf(post, ctx.origin),
    tags,
  })
}

/** The post as its author's outbox lists it: the Create of its note. */
export function createOf(ctx: Ctx, post: PostRecord, mentioned: readonly Mentioned[]): Create {
  const note = noteOf(ctx, post, mentioned)
  return new Create({
    id: new URL(`${noteUri(ctx, post).href}#create`),
    actor: ctx.getActorUri(post.authorId),
    tos: note.toIds,
    ccs: note.ccIds,
    published: note.published,
    object: note,
  })
}

const SENDS = new Set<string>(['create', 'update', 'delete'] satisfies PostSend[])

/** Who an activity goes to: each remote person, by their inbox and their server's shared inbox. */
export const recipientsOf = (people: readonly Pick<RemoteActorRecord, 'actorId' | 'inbox' | 'sharedInbox'>[]) =>
  people.map((person): Recipient => ({
    id: new URL(person.actorId),
    inboxId: new URL(person.inbox),
    endpoints: person.sharedInbox ? { sharedInbox: new URL(person.sharedInbox) } : null,
  }))

/** Whether a delivery job names a post's activity (remote-posts.ts) rather than a follow's. */
export const isPostDelivery = (payload: JobPayload) => typeof payload.send === 'string' && SENDS.has(payload.send)

/**
 * Sends what a post's delivery job names: its Create, Update or Delete, to the author's remote followers
 * and the remote people it addresses, shared inboxes first. Fedify queues one delivery job per inbox.
 */
export async function sendPostActivity(ctx: Ctx, payload: JobPayload) {
  const { send, postId, authorId, visibility, remoteIds } = payload
  if (
    typeof postId !== 'string' ||
    typeof authorId !== 'string' ||
    typeof visibility !== 'string' ||
    typeof remoteIds !== 'string'
  )
    throw new PermanentJobError('a post delivery without what it sends')
  const delivery = { send, postId, authorId, visibility, remoteIds } as PostDelivery
  const { post, recipients, mentioned } = await ctx.data.posts.outgoing(delivery)
  if (recipients.length === 0 || (await ctx.data.people.person(authorId)).kind !== 'person') return
  const to = recipientsOf(recipients)
  const me = ctx.getActorUri(authorId)
  const stamp = Date.now().toString(36)
  let activity: Create | Update | Delete
  if (send === 'delete') {
    const id = noteUri(ctx, { _id: postId })
    const { tos, ccs } = addressing(ctx, authorId, delivery.visibility, [])
    activity = new Delete({
      id: new URL(`${id.href}#delete`),
      actor: me,
      tos: [...tos, ...to.map((person) => person.id as URL)],
      ccs,
      object: new Tombstone({ id }),
    })
  } else {
    // Edited or deleted before this job ran: a later job sends what it became.
    if (!post) return
    const note = noteOf(ctx, post, mentioned)
    const values = { actor: me, tos: note.toIds, ccs: note.ccIds, object: note }
    activity =
      send === 'create'
        ? new Create({ id: new URL(`${note.id?.href}#create`), published: note.published, ...values })
        : new Update({ id: new URL(`${note.id?.href}#update/${stamp}`), ...values })
  }
  await ctx.sendActivity({ identifier: authorId }, to, activity, { preferSharedInbox: true })
}
