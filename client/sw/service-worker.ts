import { dropOldShells, pageFor, planFor, precache, shellFileFor, type Shell } from './shell.js'

/**
 * The service worker, built by Vite as its own entry (dist/client/sw.js) and registered by main.tsx. It
 * keeps this build's app shell for offline use and leaves the API, the event stream and uploads alone.
 */

/** Replaced after `vite build` by scripts/client-build/shell.ts with this build's shell, as JSON. */
const SHELL_JSON = '__CHIRP_SHELL__'
const shell = JSON.parse(SHELL_JSON) as Shell
const files: ReadonlySet<string> = new Set(shell.files)

/**
 * The parts of the worker's global scope used here. The project's TypeScript compiles for pages (the DOM
 * library), whose declarations clash with the WebWorker library's, so these few are declared by hand.
 */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request
  respondWith(response: Promise<Response>): void
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification
}
interface WindowClient {
  readonly url: string
  focus(): Promise<unknown>
  navigate(url: string): Promise<unknown>
}
interface WorkerScope {
  readonly location: { readonly origin: string }
  skipWaiting(): Promise<void>
  readonly clients: {
    claim(): Promise<void>
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>
    openWindow(url: string): Promise<unknown>
  }
  readonly registration: {
    showNotification(title: string, options: NotificationOptions & { data?: unknown }): Promise<void>
  }
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void
}

/** What Chirp pushes (DECISIONS §15): Mastodon's payload, and the page to open. */
interface Pushed {
  notification_id?: string
  title?: string
  body?: string
  icon?: string
  url?: string
}
const worker = self as unknown as WorkerScope
const { origin } = worker.location

// A new build's worker takes over as soon as its shell is stored, and the old shell goes: pages are
// asked of the network first, so what an open tab loads next is the new build's either way.
worker.addEventListener('install', (event) => {
  event.waitUntil(precache(caches, shell, origin).then(() => worker.skipWaiting()))
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(dropOldShells(caches, shell).then(() => worker.clients.claim()))
})

worker.addEventListener('fetch', (event) => {
  const plan = planFor(event.request, origin, files)
  if (plan === 'page') event.respondWith(pageFor(event.request, caches, shell, (request) => fetch(request)))
  else if (plan === 'shell') event.respondWith(shellFileFor(event.request, caches, shell, (request) => fetch(request)))
})

// A push (server/services/push.ts) shows a notification even with every tab closed; the page it names
// opens on a click, in a tab already open where there is one.
worker.addEventListener('push', (event) => {
  let pushed: Pushed = {}
  try {
    pushed = (event.data?.json() ?? {}) as Pushed
  } catch {
    // Not Chirp's JSON: shown as a plain notification all the same.
  }
  const url = typeof pushed.url === 'string' && pushed.url.startsWith(origin) ? pushed.url : `${origin}/notifications`
  event.waitUntil(
    worker.registration.showNotification(pushed.title ?? 'Chirp', {
      body: pushed.body ?? '',
      ...(pushed.icon ? { icon: pushed.icon } : {}),
      ...(pushed.notification_id ? { tag: pushed.notification_id } : {}),
      data: { url },
    }),
  )
})

worker.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const { url } = (event.notification.data ?? {}) as { url?: string }
  const target = url ?? `${origin}/notifications`
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (open) => {
      const tab = open.find((client) => client.url.startsWith(origin))
      if (!tab) return worker.clients.openWindow(target)
      await tab.navigate(target)
      return tab.focus()
    }),
  )
})
