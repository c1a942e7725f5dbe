import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { compressClient } from './client-build/compress.js'
import { writeShell } from './client-build/shell.js'

/**
 * What `npm run build:client` does after `vite build`, on dist/client or the folder given: the service
 * worker learns this build's shell, then every text file, the worker included, gets its compressed copies.
 */
export async function finishClientBuild(dir: string) {
  const shell = await writeShell(dir)
  const compressed = await compressClient(dir)
  return { shell, compressed }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = path.resolve(process.argv[2] ?? 'dist/client')
  const { shell, compressed } = await finishClientBuild(dir)
  const total = (key: 'bytes' | 'br' | 'gz') => compressed.reduce((sum, entry) => sum + (entry[key] ?? entry.bytes), 0)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  const where = path.relative(process.cwd(), dir) || '.'
  process.stdout.write(
    `service worker: shell ${shell.version}, ${shell.files.length} files\n` +
      `compressed ${compressed.length} files in ${where}: ${kb(total('bytes'))}, brotli ${kb(total('br'))}, gzip ${kb(total('gz'))}\n`,
  )
}
