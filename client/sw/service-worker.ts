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
interface WorkerScope {
  readonly location: { readonly origin: string }
  skipWaiting(): Promise<void>
  readonly clients: { claim(): Promise<void> }
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void
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
