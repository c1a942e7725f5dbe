import { Endpoints, Image, Person, type RequestContext } from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import type { AccountRecord } from '../store/types.js'
import type { ChirpFederationData } from './context.js'

/** The media type of an image by its name's extension; absent when the name does not tell. */
export function imageTypeOf(url: URL): string | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase()
  const types: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    avif: 'image/avif',
  }
  return extension === undefined ? undefined : types[extension]
}

/** A profile image as an ActivityStreams Image: an upload's path made absolute on the public origin. */
function imageOf(url: string | undefined, origin: string): Image | undefined {
  if (!url) return undefined
  const absolute = URL.canParse(url, origin) ? new URL(url, origin) : undefined
  if (!absolute || (absolute.protocol !== 'https:' && absolute.protocol !== 'http:')) return undefined
  const mediaType = imageTypeOf(absolute)
  return new Image({ url: absolute, ...(mediaType ? { mediaType } : {}) })
}

/** The name a person shows: their display name, or their first and last name as the profile shows them. */
function shownName(user: AccountRecord): string {
  return user.displayName || [user.firstName, user.lastName].filter((part) => part !== '').join(' ')
}

/** A person's bio as the HTML an actor's summary is: escaped, its lines kept. */
function textToHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
  return escaped
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('')
}

/** A Chirp person as their ActivityPub actor, with both keys and every collection (DECISIONS §14). */
export async function personOf(ctx: RequestContext<ChirpFederationData>, user: AccountRecord): Promise<Person> {
  const id = user._id
  const origin = ctx.origin
  const keys = await ctx.getActorKeyPairs(id)
  const icon = imageOf(user.avatarURL, origin)
  const image = imageOf(user.bannerURL, origin)
  return new Person({
    id: ctx.getActorUri(id),
    preferredUsername: user.username,
    name: shownName(user),
    summary: user.bio ? textToHtml(user.bio) : null,
    url: new URL(`/profile/${encodeURIComponent(user.username)}`, origin),
    published: Temporal.Instant.from(user.createdAt),
    ...(icon ? { icon } : {}),
    ...(image ? { image } : {}),
    manuallyApprovesFollowers: user.locked === true,
    discoverable: true,
    inbox: ctx.getInboxUri(id),
    outbox: ctx.getOutboxUri(id),
    followers: ctx.getFollowersUri(id),
    following: ctx.getFollowingUri(id),
    featured: ctx.getFeaturedUri(id),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((pair) => pair.multikey),
  })
}
