import type { DocumentLoader } from '@fedify/fedify'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import type { Services } from '../services/index.js'
import type { Store } from '../store/types.js'
import { createChirpFederation } from './federation.js'
import federationRoutes from './plugin.js'
import type { ChirpMessageQueue } from './message-queue.js'
import { chirpVersion } from '../version.js'

export interface FederationSetup {
  config: Config
  services: Services
  store: Store
  now: () => Date
  /** The job queue, as Fedify's message queue. */
  queue: ChirpMessageQueue
  /** How remote documents and keys are fetched, for tests. */
  documentLoader?: DocumentLoader
}

/** Registers ActivityPub (DECISIONS §14) on the app: app.ts calls it when FEDERATION is on. */
export async function registerFederation(app: FastifyInstance, setup: FederationSetup) {
  const { config, services, store, now } = setup
  const federation = createChirpFederation({
    origin: config.publicUrl,
    kv: store.federationKv,
    queue: setup.queue,
    now,
    registration: config.registration,
    version: chirpVersion(),
    ...(setup.documentLoader ? { documentLoader: setup.documentLoader } : {}),
  })
  const people = services.federationPeople
  await app.register(federationRoutes, { federation, people, origin: config.publicUrl })
  // Listening from the start, so a job of Fedify's that this instance claims always finds its handler;
  // until the app closes, before the job queue's last runs end.
  const listening = new AbortController()
  app.addHook('preClose', async () => listening.abort())
  federation.startQueue({ people }, { signal: listening.signal }).catch((error: unknown) => {
    app.log.error({ err: error }, 'federation stopped listening to the job queue')
  })
}
