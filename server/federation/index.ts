import type { DocumentLoader } from '@fedify/fedify'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import type { Services } from '../services/index.js'
import type { Store } from '../store/types.js'
import { createChirpFederation } from './federation.js'
import federationRoutes from './plugin.js'
import { chirpVersion } from './version.js'

export interface FederationSetup {
  config: Config
  services: Services
  store: Store
  now: () => Date
  /** How remote documents and keys are fetched, for tests. */
  documentLoader?: DocumentLoader
}

/** Registers ActivityPub (DECISIONS §14) on the app: app.ts calls it when FEDERATION is on. */
export async function registerFederation(app: FastifyInstance, setup: FederationSetup) {
  const { config, services, store, now } = setup
  const federation = createChirpFederation({
    origin: config.publicUrl,
    kv: store.federationKv,
    now,
    registration: config.registration,
    version: chirpVersion(),
    ...(setup.documentLoader ? { documentLoader: setup.documentLoader } : {}),
  })
  await app.register(federationRoutes, { federation, people: services.federationPeople, origin: config.publicUrl })
}
