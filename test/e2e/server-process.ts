import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

/** The repository root: the e2e tests run the production build found in its dist/. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Runs a command to completion and rejects with its output when it fails. */
export function run(command: string, args: string[], options: { cwd: string; timeoutMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code}):\n${output.slice(-4000)}`))
    })
  })
}

/** The environment for child processes: the test runner's own hooks are not passed on. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_OPTIONS' || key.startsWith('TAP') || key.startsWith('_TAPJS')) continue
    env[key] = value
  }
  return { ...env, ...extra }
}

/** A port that was free a moment ago; the server prints nothing useful for PORT=0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

export interface RunningServer {
  baseURL: string
  dataDir: string
  /** Everything the server wrote to stdout and stderr so far (the last 20 kB). */
  output(): string
  /** SIGTERM, then waits; SIGKILL after the timeout. Resolves with how it ended and how long it took. */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>
}

/** How long a server may take to answer its health check: a minute, as the suite's other files load the cores. */
const START_TIMEOUT_MS = 60_000

const running = new Set<ChildProcess>()
// A test process that dies must not leave servers listening behind it.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** Starts `node dist/server/main.js` as in production, on a free port and a temporary data directory. */
export async function startServer(
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const cwd = options.cwd ?? ROOT
  const port = await freePort()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'chirp-e2e-data-'))
  const env = childEnv({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    RATE_LIMIT: 'false',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...options.env,
  })
  delete env.JWT_SECRET
  const child = spawn(process.execPath, ['dist/server/main.js'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child)
      resolve({ code, signal })
    }),
  )
  const baseURL = `http://127.0.0.1:${port}`
  const server: RunningServer = {
    baseURL,
    dataDir,
    output: () => output,
    async stop(timeoutMs = 10_000) {
      const started = Date.now()
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
      const result = await exited
      clearTimeout(killer)
      await rm(dataDir, { recursive: true, force: true })
      return { ...result, ms: Date.now() - started }
    },
  }
  try {
    await waitForHealth(baseURL, exited, START_TIMEOUT_MS)
  } catch (error) {
    await server.stop(2_000)
    throw new Error(`${(error as Error).message}\nserver output:\n${output}`)
  }
  return server
}

async function waitForHealth(baseURL: string, exited: Promise<unknown>, timeoutMs: number): Promise<void> {
  let gone = false
  void exited.then(() => (gone = true))
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (gone) throw new Error('the server exited before it was healthy')
    const healthy = await fetch(`${baseURL}/api/health`).then(
      (res) => res.ok,
      () => false,
    )
    if (healthy) return
    await sleep(100)
  }
  throw new Error(`the server did not answer ${baseURL}/api/health within ${timeoutMs} ms`)
}
