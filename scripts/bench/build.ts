import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { ROOT } from './processes.js'

async function newest(paths: string[]): Promise<number> {
  let latest = 0
  for (const entry of paths) {
    const full = path.join(ROOT, entry)
    const info = await stat(full).catch(() => undefined)
    if (!info) continue
    if (info.isDirectory()) {
      const children = await readdir(full)
      latest = Math.max(latest, await newest(children.map((child) => path.join(entry, child))))
    } else {
      latest = Math.max(latest, info.mtimeMs)
    }
  }
  return latest
}

async function builtAt(file: string): Promise<number> {
  return (await stat(path.join(ROOT, file)).catch(() => undefined))?.mtimeMs ?? 0
}

/** Runs a build step; what it prints goes to stderr, beside the benchmark's progress, and stdout keeps only the table. */
export async function run(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 2, 'inherit'] })
  const [code] = (await once(child, 'exit')) as [number | null]
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`)
}

const SERVER_SOURCES = ['server', 'common', 'tsconfig.json', 'tsconfig.server.json', 'package-lock.json']
const CLIENT_SOURCES = [
  'client',
  'scripts/client-build.ts',
  'scripts/client-build',
  'vite.config.ts',
  'package-lock.json',
]

/** Builds the server and the client when a source is newer than the build, as `npm start` would. */
export async function ensureBuilt(log: (line: string) => void): Promise<void> {
  if ((await newest(SERVER_SOURCES)) > (await builtAt('dist/server/main.js'))) {
    log('building the server (dist/server is older than its sources)')
    await run('npm', ['run', '--silent', 'build:server'])
  }
  if ((await newest(CLIENT_SOURCES)) > (await builtAt('dist/client/index.html'))) {
    log('building the client (dist/client is older than its sources)')
    // Arguments after -- would reach build:client's last step (scripts/client-build.ts, which takes a folder), not vite.
    await run('npm', ['run', '--silent', 'build:client'])
  }
}
