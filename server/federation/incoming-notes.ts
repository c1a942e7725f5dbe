import {
  Create,
  Delete,
  Document,
  Image,
  Link,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  Update,
  isActor,
  type Context,
  type InboxListenerSetters,
  type KvStore,
} from '@fedify/fedify'
import { randomUUID } from 'node:crypto'
import type { Visibility } from '../../common/audience.js'
import type { IncomingNote } from '../services/remote-posts.js'
import { commentKey, commentNoteKey, targetOf } from './comments.js'
import type { ChirpFederationData } from './context.js'
import { profileOf } from './remote-actors.js'
import { personDeleted } from './deletions.js'

/**
 * Notes received (DECISIONS §14), translated into calls of services/remote-posts.ts: a `Create`, `Update`
 * or `Delete` of a note counts only from the note's own author, its note on the author's server; every
 * rule is the service's.
 */

type Ctx = Context<ChirpFederationData>

/** The href of a URL or a Link. */
const hrefOf = (value: URL | Link | null | undefined): string | undefined =>
  value instanceof URL ? value.href : value?.href?.href

/** The id of the person of this server a URL names (their actor); undefined otherwise. */
function localIdOf(ctx: Ctx, url: URL): string | undefined {
  if (url.origin !== ctx.origin) return undefined
  const parsed = ctx.parseUri(url)
  return parsed?.type === 'actor' ? parsed.identifier : undefined
}

/**
 * The audience of a note by how it is addressed, as Mastodon addresses them: everyone in `to` is public,
 * in `cc` unlisted; otherwise a collection (the author's followers) makes it a followers-only post, and
 * people alone a direct one.
 */
function visibilityOf(ctx: Ctx, note: Note, mentioned: ReadonlySet<string>): Visibility {
  if (note.toIds.some((id) => id.href === PUBLIC_COLLECTION.href)) return 'public'
  if (note.ccIds.some((id) => id.href === PUBLIC_COLLECTION.href)) return 'unlisted'
  const others = [...note.toIds, ...note.ccIds].filter(
    (id) => localIdOf(ctx, id) === undefined && !mentioned.has(id.href),
  )
  return others.length > 0 ? 'followers' : 'direct'
}

/** Every item of an async iterable; none when it cannot be read. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = []
  try {
    for await (const item of items) found.push(item)
  } catch {
    return found
  }
  return found
}

/** What the service needs of a note. */
async function incomingOf(ctx: Ctx, note: Note & { id: URL }): Promise<IncomingNote> {
  const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
  const tags = await all(note.getTags(loaders))
  const mentioned = new Set(tags.flatMap((tag) => (tag instanceof Mention && tag.href ? [tag.href.href] : [])))
  const addressed = new Set(
    [...note.toIds, ...note.ccIds, ...[...mentioned].map((href) => new URL(href))].flatMap(
      (id) => localIdOf(ctx, id) ?? [],
    ),
  )
  const attachments = await all(note.getAttachments(loaders))
  const images = attachments
    .filter(
      (item): item is Document | Image =>
        (item instanceof Document || item instanceof Image) && (item.mediaType ?? 'image/').startsWith('image/'),
    )
    .flatMap((image) => {
      const url = hrefOf(image.url)
      if (!url) return []
      const size = image.width && image.height ? { width: image.width, height: image.height } : {}
      return [{ url, ...(image.name ? { alt: image.name.toString() } : {}), ...size }]
    })
  const summary = note.summary?.toString()
  return {
    noteId: note.id.href,
    url: hrefOf(note.url) ?? note.id.href,
    html: note.content?.toString() ?? '',
    ...(summary ? { summary } : {}),
    ...(note.published ? { published: note.published.toString() } : {}),
    images,
    visibility: visibilityOf(ctx, note, mentioned),
    addressed: [...addressed],
  }
}

/**
 * The note a Create or Update carries, when its actor wrote it: attributed to the actor, with an id on
 * the actor's server. Anything else is refused and changes nothing.
 */
async function authoredNote(ctx: Ctx, activity: Create | Update) {
  const actor = activity.actorId
  if (!actor) return undefined
  const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
  const note = await activity.getObject(loaders).catch(() => null)
  if (!(note instanceof Note) || !note.id) return undefined
  if (note.attributionId?.href !== actor.href || note.id.origin !== actor.origin) return undefined
  const author = await ctx.data.remote.byActor(actor.href)
  return author ? { author, note: note as Note & { id: URL } } : undefined
}

/** The comment a remote note is, when it was received as one: its post's id and its own. */
const keptComment = (kv: KvStore, noteId: URL) => kv.get<{ postId: string; commentId: string }>(commentKey(noteId.href))

/**
 * Adds the note listeners to the inboxes. Each runs in an `inbox` job, after the signature was verified.
 * A note answering a post known here (or one of its comments) is a comment on it; any other is a post.
 */
export function listenForNotes(inbox: InboxListenerSetters<ChirpFederationData>, kv: KvStore) {
  inbox
    .on(Create, async (ctx, create) => {
      const found = await authoredNote(ctx, create)
      if (!found) return
      const { author, note } = found
      const target = note.replyTargetId ? await targetOf(ctx, kv, note.replyTargetId) : undefined
      if (!target) return ctx.data.posts.received(author._id, await incomingOf(ctx, note))
      // Its id is kept before the comment is written, so a reply made here as soon as it shows names its note.
      const kept = await keptComment(kv, note.id)
      const commentId = kept?.commentId ?? randomUUID()
      if (!kept) {
        await kv.set(commentKey(note.id.href), { postId: target.postId, commentId })
        await kv.set(commentNoteKey(commentId), note.id.href)
      }
      await ctx.data.comments.received(author._id, target, note.content?.toString() ?? '', commentId)
    })
    .on(Update, async (ctx, update) => {
      // An actor's Update of themselves refreshes their profile; one of someone else changes nothing.
      const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
      const object = await update.getObject(loaders).catch(() => null)
      if (isActor(object)) {
        const profile = object.id?.href === update.actorId?.href ? await profileOf(object, loaders) : undefined
        if (profile) await ctx.data.remote.updated(profile)
        return
      }
      const found = await authoredNote(ctx, update)
      if (!found) return
      const comment = await keptComment(kv, found.note.id)
      if (!comment) return ctx.data.posts.updated(found.author._id, await incomingOf(ctx, found.note))
      const html = found.note.content?.toString() ?? ''
      await ctx.data.comments.updated(found.author._id, comment.postId, comment.commentId, html)
    })
    .on(Delete, async (ctx, deletion) => {
      if (await personDeleted(ctx, deletion)) return
      const actor = deletion.actorId
      const noteId = deletion.objectId
      if (!actor || !noteId || noteId.origin !== actor.origin) return
      const author = await ctx.data.remote.byActor(actor.href)
      if (!author) return
      // The services delete the post or the comment only when this actor wrote it.
      const comment = await keptComment(kv, noteId)
      if (comment) await ctx.data.comments.deleted(author._id, comment.postId, comment.commentId)
      else await ctx.data.posts.deleted(author._id, noteId.href)
    })
}
