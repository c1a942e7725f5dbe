import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { ROOT, run, startServer } from '../e2e/server-process.js'

/*
 * No Docker engine runs here, so this test does what the Dockerfile does, step by step, in a
 * temporary directory: the build stage from a clean copy of the sources, then the runtime stage
 * with production dependencies only and the built dist/, started with the image's command.
 */

t.setTimeout(10 * 60_000)
const NPM_TIMEOUT_MS = 5 * 60_000

/** Docker's .dockerignore patterns, as far as this repository uses them: names and `*` globs. */
async function dockerIgnored(): Promise<(file: string) => boolean> {
  const lines = (await readFile(path.join(ROOT, '.dockerignore'), 'utf8')).split('\n')
  const patterns = lines.map((line) => line.trim()).filter((line) => line && !line.startsWith('#'))
  if (patterns.some((p) => p.startsWith('!') || p.includes('**')))
    throw new Error('teach this test the new .dockerignore syntax')
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/^\/|\/$/g, '')
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')}$`,
      ),
  )
  return (file) => {
    const parts = file.split('/')
    // A pattern that matches a directory leaves out everything inside it.
    return parts.some((_, i) => regexes.some((re) => re.test(parts.slice(0, i + 1).join('/'))))
  }
}

type LockPackages = Record<string, { version?: string; integrity?: string; optional?: boolean }>

/**
 * Whether the checkout's node_modules holds exactly what `npm ci` installs from package-lock.json, with the
 * patches applied, as .ci/run's own `npm ci` of a fresh clone leaves it: every package npm recorded as
 * installed (node_modules/.package-lock.json, which it writes as it installs) is the lock's, at the lock's
 * version and integrity; every package of the lock is there unless optional (another platform's); and
 * neither the lock nor patches/ changed since.
 */
async function installedFromLock(): Promise<boolean> {
  const hiddenLock = path.join(ROOT, 'node_modules', '.package-lock.json')
  const read = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { packages: LockPackages }).packages
  try {
    const [lock, installed] = await Promise.all([read(path.join(ROOT, 'package-lock.json')), read(hiddenLock)])
    const installedAt = (await stat(hiddenLock)).mtimeMs
    const inputs = await Promise.all(['package-lock.json', 'patches'].map((name) => stat(path.join(ROOT, name))))
    if (inputs.some((input) => input.mtimeMs > installedAt)) return false
    const same = Object.entries(installed).every(
      ([name, entry]) => lock[name]?.version === entry.version && lock[name]?.integrity === entry.integrity,
    )
    const complete = Object.entries(lock).every(([name, entry]) => name === '' || entry.optional || name in installed)
    return same && complete
  } catch {
    return false
  }
}

/**
 * The build stage's install, as hard links to the checkout's files (GNU cp -al): the same packages, the same
 * patches, in a moment. What the replay writes into node_modules afterwards is its own: new files (the build
 * tools' caches) land in the copy's own folders, and the one file npm rewrites, its record of what is
 * installed, is a copy of its own, as is every cache folder dropped.
 */
async function linkInstall(buildDir: string): Promise<void> {
  const modules = path.join(buildDir, 'node_modules')
  await run('cp', ['-al', path.join(ROOT, 'node_modules'), modules], { cwd: buildDir, timeoutMs: NPM_TIMEOUT_MS })
  await rm(path.join(modules, '.cache'), { recursive: true, force: true })
  const hiddenLock = path.join(modules, '.package-lock.json')
  await rm(hiddenLock)
  await cp(path.join(ROOT, 'node_modules', '.package-lock.json'), hiddenLock)
}

/**
 * The files `docker build .` would see: tracked ones, plus new ones not yet committed (not
 * ignored), so a working tree is tested as it stands. On a clean clone that is `git ls-files`.
 */
function sourceFiles(): string[] | null {
  try {
    const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard']
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean)
  } catch {
    return null
  }
}

const files = sourceFiles()
if (!files) {
  t.plan(0, 'not a git checkout: the clean copy is made from `git ls-files`')
} else {
  const work = await mkdtemp(path.join(tmpdir(), 'chirp-image-'))
  t.teardown(() => rm(work, { recursive: true, force: true }))
  const buildDir = path.join(work, 'build')
  const appDir = path.join(work, 'app')
  const timings: string[] = []
  let built = false
  const timed = async <T>(label: string, step: () => Promise<T>): Promise<T> => {
    const started = Date.now()
    const result = await step()
    timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(1)}s`)
    return result
  }

  await t.test('the Dockerfile describes the steps this test reproduces', async (t) => {
    const dockerfile = await readFile(path.join(ROOT, 'Dockerfile'), 'utf8')
    t.match(dockerfile, /^FROM node:24-slim AS build$/m)
    t.match(dockerfile, /^RUN npm ci --no-audit --no-fund$/m)
    t.match(dockerfile, /^RUN npm run build$/m)
    t.match(dockerfile, /^RUN npm prune --omit=dev\b/m)
    t.match(dockerfile, /^FROM node:24-slim AS runtime$/m)
    t.match(dockerfile, /^COPY --from=build \/app\/node_modules \.\/node_modules$/m)
    t.match(dockerfile, /^COPY --from=build \/app\/dist \.\/dist$/m)
    t.match(dockerfile, /^USER node$/m)
    t.match(dockerfile, /^VOLUME \/data$/m)
    t.match(dockerfile, /HOST=0\.0\.0\.0/)
    t.match(dockerfile, /^HEALTHCHECK .*\n?.*\/api\/health/m)
    t.match(dockerfile, /^CMD \["node", "dist\/server\/main\.js"\]$/m, 'exec form, so SIGTERM reaches Node')
  })

  await t.test('build stage: a clean copy installs and builds', async (t) => {
    const ignored = await dockerIgnored()
    // A tracked file deleted from the working tree is left out, as Docker would not see it either.
    const context = [...new Set(files)].filter((file) => !ignored(file) && existsSync(path.join(ROOT, file)))
    await timed('copy', async () => {
      for (const file of context) {
        await mkdir(path.dirname(path.join(buildDir, file)), { recursive: true })
        await cp(path.join(ROOT, file), path.join(buildDir, file))
      }
    })
    t.ok(context.includes('package-lock.json'), 'the lockfile is in the build context')
    if (await installedFromLock()) {
      await timed('npm ci (linked from the checkout)', () => linkInstall(buildDir))
      t.pass("the checkout's node_modules is npm ci's install of this package-lock.json: linked, not installed again")
    } else {
      await timed('npm ci', () =>
        run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: buildDir, timeoutMs: NPM_TIMEOUT_MS }),
      )
    }
    await timed('npm run build', () => run('npm', ['run', 'build'], { cwd: buildDir, timeoutMs: NPM_TIMEOUT_MS }))
    t.ok(existsSync(path.join(buildDir, 'dist/server/main.js')), 'the server is built')
    t.ok(existsSync(path.join(buildDir, 'dist/client/index.html')), 'the client is built')
    built = true
  })

  await t.test(
    'runtime stage: production dependencies and dist/ serve the app',
    { skip: !built && 'the build stage failed' },
    async (t) => {
      await mkdir(appDir, { recursive: true })
      for (const file of ['package.json', 'package-lock.json'])
        await cp(path.join(buildDir, file), path.join(appDir, file))
      const prune = ['prune', '--omit=dev', '--no-audit', '--no-fund']
      await timed('npm prune --omit=dev', () => run('npm', prune, { cwd: buildDir, timeoutMs: NPM_TIMEOUT_MS }))
      // COPY --from=build: the build stage is not used again, so its folders move rather than copy.
      await rename(path.join(buildDir, 'node_modules'), path.join(appDir, 'node_modules'))
      await rename(path.join(buildDir, 'dist'), path.join(appDir, 'dist'))
      for (const dev of ['typescript', 'vite', 'tap', 'tsx', 'playwright-core']) {
        t.notOk(existsSync(path.join(appDir, 'node_modules', dev)), `${dev} is not in the image`)
      }

      const server = await timed('start', () =>
        startServer({ cwd: appDir, env: { RATE_LIMIT: 'true', LOG_LEVEL: 'info' } }),
      )
      let stopped = false
      t.teardown(async () => {
        if (!stopped) await server.stop()
      })

      const health = await fetch(`${server.baseURL}/api/health`)
      t.equal(health.status, 200)
      t.match(await health.json(), { status: 'ok' }, 'GET /api/health')
      const posts = await fetch(`${server.baseURL}/api/posts`)
      t.equal(posts.status, 200)
      t.equal(((await posts.json()) as { posts: unknown[] }).posts.length, 13, 'GET /api/posts has the 13 seeded posts')

      const page = await fetch(`${server.baseURL}/`, { headers: { accept: 'text/html' } })
      t.equal(page.status, 200)
      t.match(page.headers.get('content-type'), /^text\/html/)
      const html = await page.text()
      const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1]
      t.ok(script, '/ serves the client, which loads its script')
      if (script) {
        const asset = await fetch(`${server.baseURL}${script}`)
        // Read to the end: an unread body is a live connection, which would hold the shutdown up.
        const body = await asset.arrayBuffer()
        t.ok(asset.status === 200 && body.byteLength > 0, `${script} is served`)
      }

      const exit = await timed('SIGTERM to exit', () => server.stop())
      stopped = true
      t.equal(exit.code, 0, 'SIGTERM ends the server with exit code 0')
      t.ok(exit.ms < 5_000, `it exits promptly (${exit.ms} ms)`)
      t.comment(`timings: ${timings.join(', ')}`)
    },
  )
}
