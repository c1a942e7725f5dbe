import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { compressClient, type Compressed } from './client-build/compress.js'

/** What `npm run build:client` does after `vite build`, on dist/client or the folder given. */
export async function finishClientBuild(dir: string): Promise<Compressed[]> {
  return compressClient(dir)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = path.resolve(process.argv[2] ?? 'dist/client')
  const done = await finishClientBuild(dir)
  const total = (key: 'bytes' | 'br' | 'gz') => done.reduce((sum, entry) => sum + (entry[key] ?? entry.bytes), 0)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  process.stdout.write(
    `compressed ${done.length} files in ${path.relative(process.cwd(), dir) || '.'}: ` +
      `${kb(total('bytes'))}, brotli ${kb(total('br'))}, gzip ${kb(total('gz'))}\n`,
  )
}
