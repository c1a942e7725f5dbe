import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Test } from 'tap'
import { buildApiApp } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'

/**
 * Real Mastodon clients, written by others, driven against Chirp (DECISIONS §13): Debian's `toot` and
 * `python3-mastodon` (Mastodon.py). Without the package a journey is skipped, saying why, except under CI,
 * which installs both (.ci/run) and fails a journey that cannot run.
 */

/** Debian's Python, which the python3-mastodon package installs into (not whichever python3 is first on PATH). */
export const DEBIAN_PYTHON = '/usr/bin/python3'
export const TOOT = '/usr/bin/toot'

export interface Outcome {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs a client to its end in a session of its own, so it has no terminal to ask for a password on and
 * reads it from `input` instead; killed past `timeoutMs`.
 */
export function run(
  command: string,
  args: readonly string[],
  {
    input = '',
    env = {},
    timeoutMs = 60_000,
  }: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(input)
  })
}

/**
 * Runs a client that asks questions: `answer` hears all it has written so far each time it writes more,
 * and may return a line to type; the client's outcome once it ends.
 */
export function converse(
  command: string,
  args: readonly string[],
  answer: (output: string) => string | undefined | Promise<string | undefined>,
  { env = {}, timeoutMs = 60_000 }: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let turn = Promise.resolve()
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const heard = stdout
      turn = turn
        .then(async () => {
          const line = await answer(heard)
          if (line !== undefined && child.stdin.writable) child.stdin.write(`${line}\n`)
        })
        .catch((error: unknown) => {
          child.kill('SIGKILL')
          reject(error as Error)
        })
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      void turn.then(() => resolve({ code, stdout, stderr }))
    })
  })
}

/** Why a client cannot run here, or undefined when it can; under CI its absence is a failure. */
export async function missing(what: 'toot' | 'python3-mastodon'): Promise<string | undefined> {
  const present =
    what === 'toot'
      ? existsSync(TOOT)
      : existsSync(DEBIAN_PYTHON) && (await run(DEBIAN_PYTHON, ['-c', 'import mastodon'])).code === 0
  if (present) return undefined
  const reason = `Debian's ${what} is not installed (apt-get install ${what})`
  if (process.env.CI) throw new Error(`${reason}; CI installs it in .ci/run`)
  return reason
}

/** A port nobody listens on just now, from the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * Chirp listening on a port of its own, seeded, on whichever store runs; its address, which is also its
 * PUBLIC_URL, so the streaming address the instance names (ws://) is where it listens.
 */
export async function listeningChirp(t: Test): Promise<{ api: TestApp; base: string; host: string }> {
  const port = await freePort()
  const host = `127.0.0.1:${port}`
  const api = await buildApiApp(t, { config: { rateLimit: false, publicUrl: `http://${host}` } })
  await api.app.listen({ host: '127.0.0.1', port })
  return { api, base: `http://${host}`, host }
}

/** A home directory of the test's own, so a client's saved login stays out of the user's. */
export async function tempHome(t: Test): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chirp-client-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}
