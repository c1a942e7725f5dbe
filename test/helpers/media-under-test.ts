import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Config } from '../../server/config.js'
import type { TestContext } from './app.js'
import { mediaInBucket, openBucket, sharedS3 } from './s3.js'

/** An app's uploads as they sit in its storage, read without Chirp's own code. */
export interface TestMedia {
  /** Whether they are in a bucket rather than in MEDIA_DIR. */
  inBucket: boolean
  /** Every name in the folder (files still being written included) or key in the bucket, sorted. */
  names(): Promise<string[]>
  /** The stored bytes of an upload, or undefined when there is none. */
  read(name: string): Promise<Buffer | undefined>
  /** The stored bytes of the upload a URL names; a test fails when there are none. */
  fileOf(url: string): Promise<Buffer>
}

export function testMediaOf(t: TestContext, config: Config): TestMedia {
  const reader = readerOf(t, config)
  return {
    ...reader,
    async fileOf(url) {
      const bytes = await reader.read(path.basename(url))
      if (!bytes) throw new Error(`${url} is not stored`)
      return bytes
    },
  }
}

function readerOf(t: TestContext, config: Config): Omit<TestMedia, 'fileOf'> {
  if (config.s3) {
    const bucket = openBucket(t, config.s3)
    return { inBucket: true, names: () => bucket.keys(), read: (name) => bucket.read(name) }
  }
  const dir = config.mediaDir
  const missing = (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return {
    inBucket: false,
    names: async () => ((await readdir(dir).catch(missing)) ?? []).sort(),
    read: (name) => readFile(path.join(dir, path.basename(name))).catch(missing),
  }
}

const bucketOfDataDir = new Map<string, Config['s3']>()

/**
 * Where an app built by the tests keeps its uploads: in MEDIA_DIR, or under onS3 in a bucket of its own,
 * the same one again when the app restarts on the same data directory.
 */
export async function mediaUnderTest(dataDir: string): Promise<Partial<Config>> {
  if (!mediaInBucket()) return {}
  let s3 = bucketOfDataDir.get(dataDir)
  if (!s3) {
    s3 = await (await sharedS3()).bucket()
    bucketOfDataDir.set(dataDir, s3)
  }
  return { s3 }
}
