import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

/**
 * A brotli (.br) and a gzip (.gz) copy beside each text file of the built client, at the highest levels,
 * since this runs once per build rather than once per request. The server sends the copy the browser
 * accepts (@fastify/static's preCompressed).
 */

/** Text formats; images and fonts are compressed formats already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.map', '.txt', '.xml'])
/** Below this a file fits in one packet either way. */
export const MIN_BYTES = 1024

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

const ENCODINGS = {
  '.br': (data: Buffer) =>
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  '.gz': (data: Buffer) => gzipAsync(data, { level: constants.Z_BEST_COMPRESSION }),
} as const

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map(async (entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    ),
  )
  return nested.flat()
}

export interface Compressed {
  file: string
  bytes: number
  br?: number
  gz?: number
}

/** Compresses one file into each encoding; a copy that would not be smaller is not kept (nor an older one left). */
async function compressFile(file: string): Promise<Compressed> {
  const data = await readFile(file)
  const result: Compressed = { file, bytes: data.length }
  for (const [extension, encode] of Object.entries(ENCODINGS)) {
    const copy = await encode(data)
    if (copy.length < data.length) {
      await writeFile(file + extension, copy)
      result[extension === '.br' ? 'br' : 'gz'] = copy.length
    } else {
      await rm(file + extension, { force: true })
    }
  }
  return result
}

/** Every compressible file of `dir` of at least MIN_BYTES, compressed; returns what was done. */
export async function compressClient(dir: string): Promise<Compressed[]> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.has(path.extname(file)))
  const sizes = await Promise.all(files.map(async (file) => ({ file, bytes: (await stat(file)).size })))
  return Promise.all(sizes.filter(({ bytes }) => bytes >= MIN_BYTES).map(({ file }) => compressFile(file)))
}
