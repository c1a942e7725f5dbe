import { Readable } from 'node:stream'
import { crc32, deflateRawSync } from 'node:zlib'
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

/** One entry of a zip written byte by byte, so a test can make it lie. */
export interface RawEntry {
  name: string
  data: string | Buffer
  /** Deflated (8) or stored (0, the default). */
  method?: 0 | 8
  /** The inflated size the headers declare, when not the true one. */
  declaredSize?: number
  /** General-purpose flags: bit 0 says the entry is encrypted. */
  flags?: number
}

/**
 * A zip whose headers say whatever the entries ask, as no zip writer would write them: names that leave
 * the archive, duplicates, encryption flags, sizes that lie.
 */
export function rawZip(entries: readonly RawEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const data = Buffer.from(entry.data)
    const body = entry.method === 8 ? deflateRawSync(data) : data
    const name = Buffer.from(entry.name)
    const size = entry.declaredSize ?? data.length
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at) // version needed
      header.writeUInt16LE(entry.flags ?? 0, at + 2)
      header.writeUInt16LE(entry.method ?? 0, at + 4)
      header.writeUInt32LE(0, at + 6) // time and date
      header.writeUInt32LE(crc32(data), at + 10)
      header.writeUInt32LE(body.length, at + 14)
      header.writeUInt32LE(size, at + 18)
      header.writeUInt16LE(name.length, at + 22)
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    fields(local, 4)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // version made by
    fields(central, 6)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
