import { proxy } from 'valtio'
import type { EventPayloads, Post } from '../api/types.js'
import { renameBy, withPerson, type Author } from '../lib/people.js'

/**
 * Every post the client holds, by _id. Lists hold only ids, so a post changed once
 * (a like, an edit, a live event) changes on every screen that shows it.
 */
export const postCache = proxy({ byId: {} as Record<string, Post> })

/**
 * Who is told when an id is given another post, or loses it: each card watches its own id here. A
 * watcher of the whole cache would be called for every post a page brings, by every card of the list,
 * which grows with the list; here a write calls the watchers of its own id only.
 */
const slotWatchers = new Map<string, Set<() => void>>()

/** Calls `onChange` each time the post under `postId` is replaced or removed; returns the way to stop. */
export function watchCachedSlot(postId: string, onChange: () => void): () => void {
  let watchers = slotWatchers.get(postId)
  if (!watchers) slotWatchers.set(postId, (watchers = new Set()))
  watchers.add(onChange)
  return () => {
    watchers.delete(onChange)
    if (watchers.size === 0) slotWatchers.delete(postId)
  }
}

function slotChanged(postId: string): void {
  const watchers = slotWatchers.get(postId)
  if (watchers) for (const onChange of [...watchers]) onChange()
}

/**
 * The link card each post's latest post.updated told of, with the text it was for. A card is fetched after
 * its post is saved, so a read of the post may answer before it and arrive after its event: the event
 * found no post to change yet (the list was still on its way), or the post's older read replaced the card
 * the event had brought. Either way the post would show no card until read again. A post read without a
 * card takes the one told for the same text; a read with a card, or of edited text, is the newer word.
 */
const toldCards = new Map<string, { content: string; card: NonNullable<Post['card']> }>()
/** Cards told are kept for this many posts, the latest: far more than a screen shows while its reads are on their way. */
const TOLD_CARDS = 500

function tellCard(postId: string, content: string, card: Post['card'] | undefined): void {
  if (card === undefined) return
  toldCards.delete(postId)
  if (card === null) return
  toldCards.set(postId, { content, card })
  const oldest = toldCards.keys().next().value
  if (toldCards.size > TOLD_CARDS && oldest !== undefined) toldCards.delete(oldest)
}

function withToldCard(post: Post): Post {
  const told = toldCards.get(post._id)
  return told && !post.card && told.content === post.content ? { ...post, card: told.card } : post
}

export function cachePosts(posts: readonly Post[]): void {
  for (const post of posts) postCache.byId[post._id] = withToldCard(post)
  for (const post of posts) slotChanged(post._id)
}

/** The post leaves the cache; a quote of it on another post reads as unavailable from then on. */
export function uncachePost(postId: string): void {
  delete postCache.byId[postId]
  slotChanged(postId)
  for (const post of Object.values(postCache.byId)) if (post.quote?._id === postId) post.quote = null
}

/** Keeps every cached post and comment of one author in step with the author's current profile, as answers are. */
export function updateAuthor(author: Author): void {
  for (const post of Object.values(postCache.byId)) {
    renameBy(post, author)
    for (const comment of post.comments) renameBy(comment, author)
  }
}

/*
 * Live deltas. Each changes a post only when this tab holds it: a post it does not show is none of its
 * business, and fetching it would cost more than the event saved. Each is safe to apply twice, since the
 * tab's own write comes back to it as an event too, before or after the write's answer.
 */

/**
 * An edit, or a link card arriving: the post's text, media and card as they now are. The whole post a card
 * event also carries is its compact form, without this reader's like, so only the delta is applied.
 */
export function editCachedPost({ postId, post: _whole, ...edit }: EventPayloads['post.updated']): void {
  tellCard(postId, edit.content, edit.card)
  const post = postCache.byId[postId]
  if (post) applyEdit(post, edit)
  // A quote of the post on another one shows the edit too.
  for (const quoting of Object.values(postCache.byId)) if (quoting.quote?._id === postId) applyEdit(quoting.quote, edit)
}

type Edited = NonNullable<Post['quote']>

function applyEdit(post: Edited, edit: Omit<EventPayloads['post.updated'], 'postId' | 'post'>): void {
  // The edit names the description it keeps; a size belongs to the image, so the same image keeps its own.
  delete post.mediaAlt
  // So is the content warning: an edit without one cleared it.
  delete post.spoilerText
  if (edit.mediaUrl !== post.mediaUrl || edit.mediaWidth !== undefined) {
    delete post.mediaWidth
    delete post.mediaHeight
  }
  Object.assign(post, edit)
  // Every image as the edit left them; an edit told without its list has at most the one it names.
  const { mediaUrl, mediaAlt, mediaWidth: width, mediaHeight: height } = edit
  const size = width !== undefined && height !== undefined ? { width, height } : {}
  post.media = edit.media ?? (mediaUrl === '' ? [] : [{ url: mediaUrl, alt: mediaAlt ?? '', ...size }])
}

/**
 * A like (or, with `liked` false, an unlike) by `user`, moving them between likedBy and dislikedBy as the
 * server does. `likeCount` is the server's count, taken even when the lists this tab holds disagree.
 */
export function likeCachedPost(like: Omit<EventPayloads['post.liked'], 'updatedAt'> & { updatedAt?: string }): void {
  const post = postCache.byId[like.postId]
  if (!post) return
  const { likes } = post
  likes.likedBy = withPerson(likes.likedBy, like.user, like.liked)
  likes.dislikedBy = withPerson(likes.dislikedBy, like.user, !like.liked)
  likes.likeCount = like.likeCount
  if (like.updatedAt) post.updatedAt = like.updatedAt
}

export function reset(): void {
  postCache.byId = {}
  toldCards.clear()
  for (const postId of [...slotWatchers.keys()]) slotChanged(postId)
}
