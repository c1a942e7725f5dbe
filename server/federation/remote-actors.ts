import { isActor, lookupObject, type Actor, type DocumentLoader } from '@fedify/fedify'
import type { LinkFetcher } from '../services/link-fetch.js'
import type { RemoteDirectory, RemoteProfile } from '../services/remote-people.js'

/**
 * Remote actors fetched the way every remote fetch is (DECISIONS §14): through the link fetcher's address
 * rules (https, public addresses only, pinned to the address checked), with a size cap and a deadline.
 */

/** The largest document read: an actor or an activity, as an inbox reads at most. */
const MAX_DOCUMENT_BYTES = 1024 * 1024

const ACTIVITY_JSON = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"'
const JSON_TYPES = new Set(['application/activity+json', 'application/ld+json', 'application/json'])
const JRD_TYPES = new Set(['application/jrd+json', 'application/json'])

/** Fedify's document loader over the link fetcher: only JSON, at most 1 MB, within the fetcher's deadline. */
export function remoteDocumentLoader(fetcher: LinkFetcher): DocumentLoader {
  return async (url, options) => {
    const fetched = await fetcher.fetch(url, {
      accept: (type) => JSON_TYPES.has(type),
      acceptHeader: ACTIVITY_JSON,
      maxBytes: MAX_DOCUMENT_BYTES,
      ...(options?.signal ? { signal: options.signal } : {}),
    })
    return {
      contextUrl: null,
      document: JSON.parse(fetched.body.toString('utf8')) as unknown,
      documentUrl: fetched.url.href,
    }
  }
}

/** The href of a URL or a Link. */
const hrefOf = (value: unknown): string | undefined =>
  value instanceof URL ? value.href : (value as { href?: URL | null } | null)?.href?.href

/** What Chirp keeps of an actor; undefined when it has no inbox or no name, which no follow can do without. */
export async function profileOf(
  actor: Actor,
  loaders: { documentLoader: DocumentLoader },
): Promise<RemoteProfile | undefined> {
  const inbox = actor.inboxId?.href
  const username = actor.preferredUsername?.toString()
  if (!actor.id || !inbox || !username) return undefined
  const [icon, image] = await Promise.all([
    actor.getIcon(loaders).catch(() => null),
    actor.getImage(loaders).catch(() => null),
  ])
  const iconUrl = hrefOf(icon?.url)
  const imageUrl = hrefOf(image?.url)
  const sharedInbox = actor.endpoints?.sharedInbox?.href
  return {
    actorId: actor.id.href,
    username,
    name: actor.name?.toString() ?? '',
    summary: actor.summary?.toString() ?? '',
    ...(iconUrl ? { icon: iconUrl } : {}),
    ...(imageUrl ? { image: imageUrl } : {}),
    locked: actor.manuallyApprovesFollowers === true,
    inbox,
    ...(sharedInbox ? { sharedInbox } : {}),
    url: hrefOf(actor.url) ?? actor.id.href,
    keyIds: [...actor.publicKeyIds, ...actor.assertionMethodIds].map((id) => id.href),
  }
}

/** Finds remote people by handle (WebFinger, then the actor) or by actor id, every fetch through `fetcher`. */
export function remoteDirectory(fetcher: LinkFetcher, documentLoader: DocumentLoader): RemoteDirectory {
  const loaders = { documentLoader }

  async function byActor(actorId: string) {
    // Fedify keeps an object only when its id is on the origin it was fetched from.
    const found = await lookupObject(actorId, loaders)
    return found && isActor(found) ? profileOf(found, loaders) : undefined
  }

  return {
    byActor,
    async byHandle(name, host) {
      const resource = `acct:${name}@${host}`
      const fetched = await fetcher.fetch(
        `https://${host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
        {
          accept: (type) => JRD_TYPES.has(type),
          acceptHeader: 'application/jrd+json, application/json',
          maxBytes: MAX_DOCUMENT_BYTES,
        },
      )
      const jrd = JSON.parse(fetched.body.toString('utf8')) as {
        links?: { rel?: string; type?: string; href?: string }[]
      }
      const self = jrd.links?.find(
        (link) =>
          link.rel === 'self' &&
          (link.type === 'application/activity+json' || link.type?.startsWith('application/ld+json')) &&
          typeof link.href === 'string',
      )
      return self?.href ? byActor(self.href) : undefined
    },
  }
}
