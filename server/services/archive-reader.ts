import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import yauzl from 'yauzl'
import { AppError, MSG, badRequest, payloadTooLarge } from '../errors.js'

const MB = 1024 * 1024

/** How much an import may bring (DECISIONS §9); tests pass smaller ones. */
export interface ImportLimits {
  /** The uploaded file. */
  uploadBytes: number
  /** Entries of the archive, and records (posts, follows, …) of its files together. */
  entries: number
  /** All the archive's entries, inflated. */
  inflatedBytes: number
  /** One entry, inflated. */
  entryBytes: number
  /**
   * The pixels of the archive's images together, every frame counted: what decoding them all holds and
   * costs. As many as a full upload budget of the largest images (30 of 50 million) would be too
   * slow to answer in one request; a gigapixel is some seventy phone photos.
   */
  pixels: number
}

export const IMPORT_LIMITS: ImportLimits = {
  uploadBytes: 100 * MB,
  entries: 10_000,
  inflatedBytes: 1024 * MB,
  entryBytes: 25 * MB,
  pixels: 1_000_000_000,
}

/** What the import wants of an entry: its text, or its bytes in a file of their own (images). */
export type Wanted = 'text' | 'file' | undefined

/** The entries read: texts by name, and the temporary file of each other entry, removed by `dispose`. */
export interface ArchiveContents {
  texts: Map<string, string>
  files: Map<string, string>
  dispose(): Promise<void>
}

/** yauzl's refusals of an entry's name (an absolute path, `..`, a backslash) and of its sizes. */
function refusalOf(error: unknown): AppError {
  if (error instanceof AppError) return error
  const message = error instanceof Error ? error.message : ''
  if (/absolute path|invalid relative path|invalid characters in fileName/i.test(message)) {
    return badRequest(MSG.importUnsafeName)
  }
  if (/too many bytes|not enough bytes|expected uncompressed size|size mismatch/i.test(message)) {
    return badRequest(MSG.importSizesWrong)
  }
  if (/encrypt/i.test(message)) return badRequest(MSG.importEncrypted)
  return badRequest(MSG.importNotZip)
}

/** Counts the bytes that pass, failing once they are more than the entry declared or than `max`. */
function counter(declared: number, max: number) {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length
      if (seen > declared) return done(badRequest(MSG.importSizesWrong))
      if (seen > max) return done(payloadTooLarge(MSG.importTooLarge))
      done(null, chunk)
    },
  })
}

const open = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, strictFileNames: true, validateEntrySizes: true, decodeStrings: true },
      (error, zip) => (error ? reject(refusalOf(error)) : resolve(zip)),
    ),
  )

const readStream = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(refusalOf(error)) : resolve(stream))),
  )

/**
 * Reads a zip with yauzl and every check a hostile archive calls for, before anything is imported:
 * names that leave the archive (yauzl refuses them), duplicates, encryption, too many entries, sizes
 * declared past the limits, and contents longer than declared (a zip bomb that lies), each a 4xx.
 */
export async function readArchive(
  file: string,
  limits: ImportLimits,
  wanted: (name: string) => Wanted,
): Promise<ArchiveContents> {
  const zip = await open(file)
  const dir = await mkdtemp(path.join(tmpdir(), 'chirp-import-'))
  const contents: ArchiveContents = {
    texts: new Map(),
    files: new Map(),
    dispose: () => rm(dir, { recursive: true, force: true }),
  }
  try {
    if (zip.entryCount > limits.entries) throw payloadTooLarge(MSG.importTooManyEntries)
    const names = new Set<string>()
    let inflated = 0
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        zip.close()
        reject(refusalOf(error))
      }
      zip.on('error', fail)
      zip.on('end', resolve)
      zip.on('entry', (entry: yauzl.Entry) => {
        take(entry).then(() => zip.readEntry(), fail)
      })
      zip.readEntry()
    })

    async function take(entry: yauzl.Entry) {
      const name = entry.fileName
      if (names.has(name.toLowerCase())) throw badRequest(MSG.importDuplicateName)
      names.add(name.toLowerCase())
      if (entry.isEncrypted()) throw badRequest(MSG.importEncrypted)
      if (entry.uncompressedSize > limits.entryBytes) throw payloadTooLarge(MSG.importTooLarge)
      inflated += entry.uncompressedSize
      if (inflated > limits.inflatedBytes) throw payloadTooLarge(MSG.importTooLarge)
      const kind = name.endsWith('/') ? undefined : wanted(name)
      if (!kind) return
      const stream = await readStream(zip, entry)
      const count = counter(entry.uncompressedSize, limits.entryBytes)
      if (kind === 'text') {
        const chunks: Buffer[] = []
        await pipeline(stream, count, async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) chunks.push(chunk)
        })
        contents.texts.set(name, Buffer.concat(chunks).toString('utf8'))
      } else {
        const target = path.join(dir, String(contents.files.size))
        await pipeline(stream, count, createWriteStream(target))
        contents.files.set(name, target)
      }
    }
    return contents
  } catch (error) {
    await contents.dispose()
    throw refusalOf(error)
  } finally {
    zip.close()
  }
}
