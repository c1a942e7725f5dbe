import type { Config } from './config.js'
import { loadJwtSecret } from './plugins/auth.js'
import type { EventsHub, EventsHubOptions } from './plugins/events.js'
import type { ChirpEvent } from './schemas/events.js'
import { EmbeddedStore } from './store/embedded-store.js'
import { logHead, startEventLog, type EventLog } from './store/pg/event-log.js'
import { PgStore } from './store/pg/pg-store.js'
import { createPgTicketStore, sharedJwtSecret, sharedSetting } from './store/pg/shared-state.js'
import { fileVapidKeys, freshVapidKeys, vapidKeysOf, type VapidKeyPair } from './services/vapid-keys.js'
import { createPgStreamSlots } from './store/pg/stream-slots.js'
import type { Database, Store } from './store/types.js'

export interface PersistenceOptions {
  /** Builds the first database of an empty store. */
  seed: () => Promise<Database>
  log: { info(msg: string): void; warn(obj: object, msg: string): void }
  /** The embedded store cannot tell what is on disk any more; see EmbeddedStore's onBroken. */
  onBroken: (error: unknown) => void
}

/**
 * The store, and what the rest of the app must share with other instances when there are any: where
 * events get their ids, where stream tickets live, where streams are counted against the per-user cap, and the JWT secret.
 */
export interface Persistence {
  store: Store
  /** What the events hub needs to be part of the store's cluster. */
  hubOptions: Pick<EventsHubOptions, 'tickets' | 'history' | 'startId' | 'slots'>
  jwtSecret(): Promise<string>
  /** The VAPID key pair of Web Push: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or one made once and kept. */
  vapidKeys(): Promise<VapidKeyPair>
  /** Starts handing committed events to the hub. */
  connect(hub: EventsHub): Promise<void>
  close(): Promise<void>
}

export function openPersistence(config: Config, options: PersistenceOptions): Promise<Persistence> {
  return config.databaseUrl === undefined
    ? openEmbedded(config, options)
    : openPostgres(config, config.databaseUrl, options)
}

/** One process: the store publishes each committed transaction's events to the hub, which numbers them. */
async function openEmbedded(config: Config, options: PersistenceOptions): Promise<Persistence> {
  let hub: EventsHub | undefined
  const store = await EmbeddedStore.open({
    dataDir: config.dataDir,
    seed: options.seed,
    flush: config.storeFlush,
    onBroken: options.onBroken,
    publish: (event: ChirpEvent) => hub?.publish(event),
    log: (message) => options.log.info(message),
  })
  return {
    store,
    hubOptions: {},
    jwtSecret: () => loadJwtSecret(config.jwtSecret, config.dataDir),
    vapidKeys: async () => config.vapidKeys ?? (await fileVapidKeys(config.dataDir)),
    async connect(connected) {
      hub = connected
    },
    close: () => store.close(),
  }
}

/** Several instances: events are numbered by the database's log and reach every instance's hub from it. */
async function openPostgres(config: Config, url: string, options: PersistenceOptions): Promise<Persistence> {
  const store = await PgStore.open({
    url,
    poolMax: config.databasePoolMax,
    schema: config.databaseSchema,
    seed: options.seed,
    log: options.log,
  })
  const startId = await logHead(store.sql)
  let eventLog: EventLog | undefined
  return {
    store,
    hubOptions: {
      startId,
      tickets: createPgTicketStore(store.sql),
      slots: createPgStreamSlots(store.sql, { log: options.log }),
      history: async (request) => eventLog?.replay(request),
    },
    jwtSecret: async () => config.jwtSecret ?? (await sharedJwtSecret(store.sql)),
    vapidKeys: async () =>
      config.vapidKeys ?? vapidKeysOf(await sharedSetting(store.sql, 'vapid_keys', freshVapidKeys())),
    async connect(hub) {
      eventLog = await startEventLog({
        sql: store.sql,
        schema: config.databaseSchema,
        from: startId,
        deliver: (event) => {
          store.eventArrived(event)
          hub.deliver(event)
        },
        log: options.log,
      })
      const started = eventLog
      store.followEvents((head) => started.catchUp(head))
      // The write has committed whatever happens here; its events then arrive with the next tick or poll.
      store.afterEvents = (upTo) =>
        started
          .settle(upTo)
          .catch((err: unknown) => options.log.warn({ err }, 'events of a committed write are delivered late'))
    },
    async close() {
      await eventLog?.close()
      await store.close()
    },
  }
}
