import { spawn, type ChildProcess } from 'node:child_process'
import { ROOT, childEnv } from '../e2e/server-process.js'

/** The built server (dist/server/main.js) as a child process, for tests that kill it. */

const START_TIMEOUT_MS = 60_000

const running = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

export interface ChildServer {
  child: ChildProcess
  base: string
  exited: Promise<number | null>
  /** What it has written to stdout and stderr so far. */
  output(): string
}

/** Starts the server with `env` and resolves once it listens, with its address read from its own log line. */
export function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: ROOT,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', RATE_LIMIT: 'false', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => (running.delete(child), resolve(code))),
  )
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => reject(new Error(`no listening line within ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    )
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (found) {
        clearTimeout(timer)
        resolve({ child, base: found[1] as string, exited, output: () => output })
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited (${code}) before listening:\n${output}`))
    })
  })
}

/** A JSON request to a child server, as a client of the original mock sends one (`Prefer: return=minimal`). */
export async function request(base: string, method: string, url: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = { prefer: 'return=minimal' }
  if (token) headers.authorization = token
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${base}${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
