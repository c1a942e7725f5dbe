import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import t from 'tap'
import type { S3Config } from '../../server/config.js'
import type { TestContext } from './app.js'

/** s3rver takes any key pair whose secret matches its own; the SDK signs every request with it. */
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

/** A real S3-compatible server on 127.0.0.1. */
export interface TestS3 {
  endpoint: string
  /** Makes an empty bucket and answers the settings that point Chirp at it (path style, as s3rver needs). */
  bucket(): Promise<S3Config>
}

/** Starts s3rver on a free port over a fresh folder; the server and the folder go when `t` ends. */
export async function startS3(t: TestContext): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'chirp-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const { port } = (await server.run()) as AddressInfo
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: KEYS })
  t.teardown(async () => {
    client.destroy()
    await server.close()
    await rm(directory, { recursive: true, force: true })
  })
  return {
    endpoint,
    async bucket() {
      const bucket = `chirp-${randomBytes(6).toString('hex')}`
      await client.send(new CreateBucketCommand({ Bucket: bucket }))
      return { bucket, endpoint, region: 'us-east-1', ...KEYS, publicUrl: undefined, forcePathStyle: true }
    },
  }
}

/** One bucket seen by a client of the tests' own, not Chirp's. */
export interface TestBucket {
  /** Every key, sorted. */
  keys(): Promise<string[]>
  /** An object's bytes, or undefined when there is no such key. */
  read(key: string): Promise<Buffer | undefined>
  /** An object's type and caching, as the bucket answers anyone who fetches it. */
  head(key: string): Promise<{ contentType?: string; cacheControl?: string }>
}

export function openBucket(t: TestContext, config: S3Config): TestBucket {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: KEYS,
  })
  t.teardown(() => client.destroy())
  const Bucket = config.bucket
  return {
    async keys() {
      const keys: string[] = []
      let token: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }))
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key)
        token = page.NextContinuationToken
      } while (token)
      return keys.sort()
    },
    async read(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }))
        return Buffer.from(await object.Body!.transformToByteArray())
      } catch (error) {
        if ((error as Error).name === 'NoSuchKey') return undefined
        throw error
      }
    },
    async head(key) {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }))
      return { contentType: head.ContentType, cacheControl: head.CacheControl }
    },
  }
}

let shared: Promise<TestS3> | undefined
/** Set while a process of the suite holds the server for all its files (holdS3): what stops it. */
let held: (() => unknown)[] | undefined

/**
 * Makes the S3 server of this process outlive each file that uses it, as the suite's process running
 * many files needs; the function returned stops it.
 */
export function holdS3(): () => Promise<void> {
  const teardowns: (() => unknown)[] = []
  held = teardowns
  return async () => {
    for (const teardown of teardowns) await teardown()
  }
}

/** The S3 server of this test process, started on first use and stopped when the process's tests end. */
export function sharedS3(): Promise<TestS3> {
  shared ??= startS3(held ? { teardown: (fn) => held?.push(fn) } : t)
  return shared
}

/** Whether the app tests keep their uploads in a bucket (onS3) rather than in MEDIA_DIR. */
export const mediaInBucket = () => process.env.CHIRP_TEST_MEDIA === 's3'

/**
 * Runs a test file of the app's suite again with every app's uploads in a bucket of its own on a real
 * S3-compatible server, as onPostgres runs one on PostgreSQL.
 */
export async function onS3(suite: () => Promise<unknown>): Promise<void> {
  process.env.CHIRP_TEST_MEDIA = 's3'
  await sharedS3()
  await suite()
}
