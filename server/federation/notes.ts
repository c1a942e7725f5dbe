import { Create, Document, Note, PUBLIC_COLLECTION, type Context } from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import type { PostRecord } from '../store/types.js'
import { textToHtml } from './actors.js'
import type { ChirpFederationData } from './context.js'

type Ctx = Context<ChirpFederationData>

/** Where a post's note lives; its Create is the same address with `#create`. */
const noteUri = (ctx: Ctx, post: PostRecord) => ctx.getObjectUri(Note, { id: post._id })

function attachmentOf(post: PostRecord, origin: string): Document[] {
  if (!post.mediaUrl || !URL.canParse(post.mediaUrl, origin)) return []
  const url = new URL(post.mediaUrl, origin)
  return [
    new Document({
      url,
      ...(post.mediaAlt ? { name: post.mediaAlt } : {}),
      ...(post.mediaWidth !== undefined ? { width: post.mediaWidth } : {}),
      ...(post.mediaHeight !== undefined ? { height: post.mediaHeight } : {}),
    }),
  ]
}

/**
 * A post a signed-out reader may see as a Note, addressed by its audience (DECISIONS §12): a public one to
 * everyone with the author's followers in copy, an unlisted one to the followers with everyone in copy.
 */
export function noteOf(ctx: Ctx, post: PostRecord): Note {
  const followers = ctx.getFollowersUri(post.authorId)
  const unlisted = post.visibility === 'unlisted'
  return new Note({
    id: noteUri(ctx, post),
    attribution: ctx.getActorUri(post.authorId),
    to: unlisted ? followers : PUBLIC_COLLECTION,
    cc: unlisted ? PUBLIC_COLLECTION : followers,
    content: textToHtml(post.content),
    url: new URL(`/post-detail/${encodeURIComponent(post._id)}`, ctx.origin),
    published: Temporal.Instant.from(post.createdAt),
    ...(post.editedAt ? { updated: Temporal.Instant.from(post.editedAt) } : {}),
    ...(post.spoilerText ? { summary: post.spoilerText, sensitive: true } : {}),
    attachments: attachmentOf(post, ctx.origin),
  })
}

/** The post as its author's outbox lists it: the Create of its note. */
export function createOf(ctx: Ctx, post: PostRecord): Create {
  const note = noteOf(ctx, post)
  return new Create({
    id: new URL(`${noteUri(ctx, post).href}#create`),
    actor: ctx.getActorUri(post.authorId),
    to: note.toId,
    cc: note.ccId,
    published: note.published,
    object: note,
  })
}
