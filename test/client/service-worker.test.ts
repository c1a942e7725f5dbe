import t from 'tap'
import {
  cacheName,
  dropOldShells,
  pageFor,
  planFor,
  precache,
  shellFileFor,
  type CachesLike,
  type Shell,
} from '../../client/sw/shell.js'

/** The service worker's logic over a Cache API kept in maps; the worker in a real browser is test/e2e/offline.test.ts's. */
const ORIGIN = 'https://chirp.example'
const shell: Shell = {
  version: 'v2',
  files: ['/index.html', '/assets/index-abc.js', '/assets/index-abc.css', '/icon-192.png'],
}
const files = new Set(shell.files)

/** CacheStorage as maps of URL to response; addAll fetches through `fetch`, as the browser's does. */
function fakeCaches(fetch: (request: Request) => Promise<Response>) {
  const stores = new Map<string, Map<string, Response>>()
  const requested: Request[] = []
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>()
    stores.set(name, store)
    return {
      async addAll(requests: Request[]) {
        for (const request of requests) {
          requested.push(request)
          store.set(request.url, await fetch(request))
        }
      },
      async match(request: Request | string) {
        return store.get(new URL(typeof request === 'string' ? request : request.url, ORIGIN).href)?.clone()
      },
    } as unknown as Cache
  }
  const caches: CachesLike = { open, keys: async () => [...stores.keys()], delete: async (name) => stores.delete(name) }
  return { caches, stores, requested }
}

const network = (body: string) => async (request: Request) => new Response(`${body} ${new URL(request.url).pathname}`)
const offline = async (): Promise<Response> => {
  throw new TypeError('Failed to fetch')
}
const request = (path: string, init: { method?: string; mode?: string } = {}) => ({
  url: `${ORIGIN}${path}`,
  method: 'GET',
  mode: 'cors',
  ...init,
})

await t.test('the API, its stream, uploads, writes and other sites are left to the network', async (t) => {
  for (const path of ['/api/posts', '/api', '/api/events?ticket=x', '/media/a.png', '/assets/unknown-123.js']) {
    t.equal(planFor(request(path) as Request, ORIGIN, files), 'network', path)
  }
  t.equal(planFor(request('/api/docs', { mode: 'navigate' }) as Request, ORIGIN, files), 'network', 'the API docs page')
  t.equal(
    planFor(request('/assets/index-abc.js', { method: 'POST' }) as Request, ORIGIN, files),
    'network',
    'not a GET',
  )
  t.equal(
    planFor({ url: 'https://cdn.example/assets/index-abc.js', method: 'GET', mode: 'cors' } as Request, ORIGIN, files),
    'network',
    'another origin',
  )
})

await t.test('a navigation is a page, and a file of this build comes from the shell', async (t) => {
  for (const path of ['/', '/profile/guest', '/post-detail/p1'])
    t.equal(planFor(request(path, { mode: 'navigate' }) as Request, ORIGIN, files), 'page', path)
  t.equal(planFor(request('/assets/index-abc.js') as Request, ORIGIN, files), 'shell')
  t.equal(planFor(request('/icon-192.png') as Request, ORIGIN, files), 'shell')
})

await t.test(
  "install stores every file of the build under the build's cache name, asking the server again",
  async (t) => {
    const { caches, stores, requested } = fakeCaches(network('v2'))
    await precache(caches, shell, ORIGIN)
    t.same([...stores.keys()], ['chirp-shell-v2'])
    t.same(
      [...(stores.get(cacheName(shell))?.keys() ?? [])],
      shell.files.map((file) => `${ORIGIN}${file}`),
    )
    t.ok(
      requested.every((r) => r.cache === 'no-cache'),
      'never an older build from the HTTP cache',
    )
  },
)

await t.test("activation drops earlier builds' shells and nothing else", async (t) => {
  const { caches, stores } = fakeCaches(network('x'))
  for (const name of ['chirp-shell-v1', 'chirp-shell-v0', 'chirp-shell-v2', 'someone-else']) await caches.open(name)
  t.same((await dropOldShells(caches, shell)).sort(), ['chirp-shell-v0', 'chirp-shell-v1'])
  t.same([...stores.keys()].sort(), ['chirp-shell-v2', 'someone-else'])
})

await t.test('a page comes from the network while it answers, and from the shell when it does not', async (t) => {
  const { caches } = fakeCaches(network('cached'))
  await precache(caches, shell, ORIGIN)
  const navigate = new Request(`${ORIGIN}/profile/guest`)
  t.equal(
    await (await pageFor(navigate, caches, shell, network('fresh'))).text(),
    'fresh /profile/guest',
    'online: the newest page',
  )
  t.equal(await (await pageFor(navigate, caches, shell, offline)).text(), 'cached /index.html', 'offline: the shell')
  const empty = fakeCaches(network('x'))
  await t.rejects(pageFor(navigate, empty.caches, shell, offline), TypeError, 'no shell yet: the failure as it was')
})

await t.test('a shell file comes from the cache, else from the network', async (t) => {
  const { caches } = fakeCaches(network('cached'))
  await precache(caches, shell, ORIGIN)
  const script = new Request(`${ORIGIN}/assets/index-abc.js`)
  t.equal(await (await shellFileFor(script, caches, shell, offline)).text(), 'cached /assets/index-abc.js')
  const evicted = fakeCaches(network('x'))
  t.equal(
    await (await shellFileFor(script, evicted.caches, shell, network('fresh'))).text(),
    'fresh /assets/index-abc.js',
  )
})
