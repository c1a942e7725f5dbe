import type { DocumentLoader } from '@fedify/fedify'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import type { Services } from '../services/index.js'
import { createLinkFetcher, type LinkFetchOptions } from '../services/link-fetch.js'
import type { Store } from '../store/types.js'
import type { ChirpFederationData } from './context.js'
import { isCommentDelivery, sendCommentActivity } from './comments.js'
import { isReactionDelivery, sendReactionActivity } from './reactions.js'
import { createChirpFederation } from './federation.js'
import { sendFollowActivity } from './follows.js'
import { isPersonDeletion, sendPersonDeletion } from './deletions.js'
import federationRoutes from './plugin.js'
import { isPostDelivery, sendPostActivity } from './notes.js'
import type { ChirpMessageQueue } from './message-queue.js'
import { remoteDirectory, remoteDocumentLoader } from './remote-actors.js'
import { chirpVersion } from '../version.js'

export interface FederationSetup {
  config: Config
  services: Services
  store: Store
  now: () => Date
  /** The job queue, as Fedify's message queue. */
  queue: ChirpMessageQueue
  /** How remote documents and keys are fetched, for tests: in place of the link fetcher. */
  documentLoader?: DocumentLoader
  /** The link fetcher's resolver, certificate authority and deadline, for tests. */
  fetch?: Pick<LinkFetchOptions, 'resolve' | 'ca' | 'timeoutMs'>
}

/** Registers ActivityPub (DECISIONS §14) on the app: app.ts calls it when FEDERATION is on. */
export async function registerFederation(app: FastifyInstance, setup: FederationSetup) {
  const { config, services, store, now } = setup
  const version = chirpVersion()
  // Every remote fetch goes through the link fetcher's address rules, with its size cap and deadline.
  const fetcher = createLinkFetcher({
    allowPrivate: config.federationAllowPrivate,
    userAgent: `Chirp/${version} (+${config.publicUrl})`,
    ...setup.fetch,
  })
  const documentLoader = setup.documentLoader ?? remoteDocumentLoader(fetcher)
  const { federation, kv } = createChirpFederation({
    origin: config.publicUrl,
    kv: store.federationKv,
    queue: setup.queue,
    now,
    registration: config.registration,
    version,
    documentLoader,
  })
  services.remotePeople.attach(remoteDirectory(fetcher, documentLoader))
  const data: ChirpFederationData = {
    people: services.federationPeople,
    remote: services.remotePeople,
    follows: services.federationFollows,
    posts: services.remotePosts,
    comments: services.remoteComments,
    reactions: services.remoteReactions,
    deletion: services.accountDeletion,
  }
  setup.queue.sendWith((payload) => {
    const ctx = federation.createContext(new URL(config.publicUrl), data)
    if (isPostDelivery(payload)) return sendPostActivity(ctx, payload)
    if (isCommentDelivery(payload)) return sendCommentActivity(ctx, kv, payload)
    if (isReactionDelivery(payload)) return sendReactionActivity(ctx, kv, payload)
    if (isPersonDeletion(payload)) return sendPersonDeletion(ctx, payload)
    return sendFollowActivity(ctx, kv, payload)
  })
  await app.register(federationRoutes, { federation, data, origin: config.publicUrl })
  // Listening from the start, so a job of Fedify's that this instance claims always finds its handler;
  // until the app closes, before the job queue's last runs end.
  const listening = new AbortController()
  app.addHook('preClose', async () => listening.abort())
  federation.startQueue(data, { signal: listening.signal }).catch((error: unknown) => {
    app.log.error({ err: error }, 'federation stopped listening to the job queue')
  })
}
