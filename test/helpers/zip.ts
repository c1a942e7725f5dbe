import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import yauzl from 'yauzl'
import { ZipFile } from 'yazl'

/** Every entry of a zip, by name, read whole: for checking small archives in tests. */
export async function readZip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  )
  const entries = new Map<string, Buffer>()
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject)
    zip.on('end', resolve)
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error)
        buffer(stream).then((data) => {
          entries.set(entry.fileName, data)
          zip.readEntry()
        }, reject)
      })
    })
    zip.readEntry()
  })
  return entries
}

/** A zip of these files, in order (duplicates kept: a Map could not hold them). */
export async function makeZip(files: readonly (readonly [name: string, data: string | Buffer])[]): Promise<Buffer> {
  const zip = new ZipFile()
  for (const [name, data] of files) zip.addBuffer(Buffer.from(data), name)
  zip.end()
  return buffer(zip.outputStream as Readable)
}
