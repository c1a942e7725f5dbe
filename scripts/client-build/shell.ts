import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Shell } from '../../client/sw/shell.js'

/** The service worker as Vite writes it, and the string in it that stands for this build's shell. */
const WORKER_FILE = 'sw.js'
const PLACEHOLDER = /(["'`])__CHIRP_SHELL__\1/g

/** Not part of the shell: the worker itself, source maps, compressed copies and dotfiles (.vite/). */
const leftOut = (file: string) =>
  file === WORKER_FILE || /\.(map|br|gz)$/.test(file) || file.split('/').some((part) => part.startsWith('.'))

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true })
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const relative = path.posix.join(prefix, entry.name)
      return entry.isDirectory() ? filesUnder(dir, relative) : [relative]
    }),
  )
  return nested.flat()
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex')

/**
 * Writes this build's shell into the built service worker: every file the app may load (index.html, the
 * hashed scripts and styles, icons, avatars, the manifest) and a version made of all their contents and
 * the worker's own code. A new build thus gets a new worker byte for byte, which is what makes browsers
 * install it, and a new cache name, under which the old shell is dropped.
 */
export async function writeShell(dir: string): Promise<Shell> {
  const workerPath = path.join(dir, WORKER_FILE)
  const worker = await readFile(workerPath, 'utf8')
  const found = worker.match(PLACEHOLDER)?.length ?? 0
  if (found !== 1) throw new Error(`${workerPath} must hold the shell placeholder once; found ${found}`)
  const files = (await filesUnder(dir)).filter((file) => !leftOut(file)).sort()
  const digest = createHash('sha256').update(sha256(worker))
  for (const file of files) digest.update(`\n${file}\n${sha256(await readFile(path.join(dir, file)))}`)
  const shell: Shell = { version: digest.digest('hex').slice(0, 16), files: files.map((file) => `/${file}`) }
  await writeFile(workerPath, worker.replace(PLACEHOLDER, JSON.stringify(JSON.stringify(shell))))
  return shell
}
