import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import path from 'node:path'

const HOST = '127.0.0.1'
export const ROOT = path.resolve(import.meta.dirname, '../..')

export interface Running {
  url: string
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>
}

/** A port nobody listens on right now, found by asking the kernel for one. */
export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, HOST)
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}:\n${output()}`)
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not come up within 60 s:\n${output()}`)
}

/**
 * Starts `node <args>` under a raised open-files limit (streams of the fan-out leg are file descriptors)
 * and waits until `healthPath` answers. Its output is kept for the error message if it dies.
 */
async function startProcess(
  args: string[],
  env: Record<string, string>,
  healthPath: string,
  port: number,
  openFiles: number,
): Promise<Running> {
  const child = spawn('sh', ['-c', `ulimit -n ${openFiles} 2>/dev/null; exec "$0" "$@"`, process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const url = `http://${HOST}:${port}`
  try {
    await waitUntilUp(url + healthPath, child, () => output)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}

export interface ChirpOptions {
  dataDir: string
  jwtSecret: string
  openFiles: number
  /** Extra environment, e.g. STORE_FLUSH=per-write. */
  env?: Record<string, string>
}

/**
 * The production server as `npm start` runs it, on its own data directory, with rate limits off; on the
 * embedded store unless `env` names a database (a DATABASE_URL the benchmark was run with is not passed on).
 */
export async function startChirp(options: ChirpOptions): Promise<Running> {
  const port = await freePort()
  return startProcess(
    ['dist/server/main.js'],
    {
      HOST,
      PORT: String(port),
      DATA_DIR: options.dataDir,
      JWT_SECRET: options.jwtSecret,
      RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...options.env,
    },
    '/api/health',
    port,
    options.openFiles,
  )
}

/** Fastify's hello world in its own process: context beside the reads of leg 1. */
export async function startHello(): Promise<Running> {
  const port = await freePort()
  return startProcess(['scripts/bench/hello-server.mjs'], { HOST, PORT: String(port) }, '/', port, 1024)
}

/** A route of the same-bytes server: what it answers on `path`, read from `file`. */
export interface FixedRoute {
  path: string
  contentType: string
  file: string
}

/** Bare Fastify routes, each sending one fixed body: the anchor of a read that sends those bytes. */
export async function startSameBytes(routes: readonly FixedRoute[]): Promise<Running> {
  const port = await freePort()
  const health = routes[0]?.path ?? '/'
  const env = { HOST, PORT: String(port), ROUTES: JSON.stringify(routes) }
  return startProcess(['scripts/bench/same-bytes-server.mjs'], env, health, port, 1024)
}
