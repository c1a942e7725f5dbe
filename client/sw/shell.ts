/**
 * The offline app shell, as the service worker keeps it: index.html and every file of one build, in a
 * cache named after that build. Everything here is plain logic over the Cache API, so it runs in tests.
 */

/** What the build step writes into sw.js: a version that changes with any file, and the files' paths. */
export interface Shell {
  version: string
  files: string[]
}

const CACHE_PREFIX = 'chirp-shell-'
/** Every app route is this one page; the client's router draws the rest. */
const PAGE = '/index.html'

export const cacheName = (shell: Shell) => `${CACHE_PREFIX}${shell.version}`

type Fetch = (request: Request) => Promise<Response>
export type CachesLike = Pick<CacheStorage, 'open' | 'keys' | 'delete'>

/**
 * What to do with a request: 'network' leaves it to the browser as if there were no worker (the API,
 * its event stream, uploads, other origins, anything but GET); 'page' is a navigation, from the
 * network while it answers and else from the shell; 'shell' is a file of this build, from the cache.
 */
export function planFor(
  request: Pick<Request, 'method' | 'url' | 'mode'>,
  origin: string,
  files: ReadonlySet<string>,
): 'network' | 'page' | 'shell' {
  if (request.method !== 'GET') return 'network'
  const url = new URL(request.url)
  if (url.origin !== origin) return 'network'
  const { pathname } = url
  // Data must be live or not at all, and images are many and large: neither is kept.
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/media/')) return 'network'
  if (request.mode === 'navigate') return 'page'
  return files.has(pathname) ? 'shell' : 'network'
}

/**
 * Fetches the whole shell into this build's cache. The unhashed files (index.html, the manifest, icons)
 * are asked of the server again rather than of the HTTP cache, which may hold an older build's.
 */
export async function precache(caches: CachesLike, shell: Shell, origin: string): Promise<void> {
  const cache = await caches.open(cacheName(shell))
  await cache.addAll(shell.files.map((file) => new Request(new URL(file, origin), { cache: 'no-cache' })))
}

/** Deletes the shells of earlier builds once this one is in charge; other caches are not ours to touch. */
export async function dropOldShells(caches: CachesLike, shell: Shell): Promise<string[]> {
  const current = cacheName(shell)
  const old = (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX) && name !== current)
  await Promise.all(old.map((name) => caches.delete(name)))
  return old
}

/**
 * A navigation: the network's page when it answers, so a new build shows at once; the shell's page
 * when it does not (offline, or the server is down), so the app still opens.
 */
export async function pageFor(request: Request, caches: CachesLike, shell: Shell, fetch: Fetch): Promise<Response> {
  try {
    return await fetch(request)
  } catch (error) {
    const cache = await caches.open(cacheName(shell))
    const page = await cache.match(PAGE)
    if (page) return page
    throw error
  }
}

/** A file of this build: from the shell, or from the network if the shell lacks it (it was evicted). */
export async function shellFileFor(
  request: Request,
  caches: CachesLike,
  shell: Shell,
  fetch: Fetch,
): Promise<Response> {
  const cache = await caches.open(cacheName(shell))
  return (await cache.match(request)) ?? fetch(request)
}
