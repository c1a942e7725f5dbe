import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { run } from './build.js'
import type { Scratch } from './dataset.js'
import { ROOT } from './processes.js'

export interface InitialJs {
  files: { file: string; bytes: number; gzip: number }[]
  bytes: number
  gzip: number
}

const STATIC_IMPORT = /\bfrom\s*["'](\.\/[^"']+\.js)["']|\bimport\s*["'](\.\/[^"']+\.js)["']/g

/**
 * The JavaScript a first visit must load before the app runs: the entry chunk named by index.html and,
 * transitively, every chunk it imports statically. Chunks loaded by import() come later, so they do not
 * count. Each file is gzipped on its own, as a server would send it.
 */
async function initialJs(outDir: string): Promise<InitialJs> {
  const html = await readFile(path.join(outDir, 'index.html'), 'utf8')
  const entry = /<script[^>]+type="module"[^>]+src="\/?([^"]+\.js)"/.exec(html)?.[1]
  if (!entry) throw new Error(`${outDir}/index.html names no module script`)
  const seen = new Set<string>()
  const queue = [entry]
  const files: InitialJs['files'] = []
  while (queue.length > 0) {
    const file = queue.shift() as string
    if (seen.has(file)) continue
    seen.add(file)
    const code = await readFile(path.join(outDir, file))
    files.push({ file, bytes: code.length, gzip: gzipSync(code).length })
    for (const match of code.toString('utf8').matchAll(STATIC_IMPORT)) {
      queue.push(path.posix.join(path.posix.dirname(file), (match[1] ?? match[2]) as string))
    }
  }
  return {
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
  }
}

/** Leg 6: the production client (preact/compat) against the same app built with React. */
export async function bundleWeight(scratch: Scratch, log: (line: string) => void) {
  log('6. client weight: building the React variant')
  const reactDir = await scratch.dir('react-build')
  await run('npx', [
    'vite',
    'build',
    '--config',
    'scripts/bench/vite-react.config.ts',
    '--outDir',
    reactDir,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ])
  const preact = await initialJs(path.join(ROOT, 'dist/client'))
  const react = await initialJs(reactDir)
  const ratio = preact.gzip / react.gzip
  log(
    `  preact/compat ${(preact.gzip / 1024).toFixed(1)} KB gzip, React ${(react.gzip / 1024).toFixed(1)} KB, ratio ${ratio.toFixed(2)}`,
  )
  return { preact, react, ratio }
}
