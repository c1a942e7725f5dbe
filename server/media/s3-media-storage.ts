import type { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import type { S3Config } from '../config.js'
import { contentTypeOf, readAll, unlessMissing, type MediaStorage } from './media-storage.js'

/** What the bucket answers for a key it does not hold: GET says NoSuchKey, HEAD a bare 404. */
const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)

/**
 * Uploads as objects of one bucket of any S3-compatible service, so instances on several machines share
 * them without a shared volume. Each object carries its type and the caching an upload deserves, for when
 * browsers fetch it from the bucket's public address rather than through Chirp.
 */
export function createS3MediaStorage(config: S3Config): MediaStorage {
  const { bucket } = config
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
    // The SDK's default checksums (CRC32 on every request) are not understood by every S3-compatible
    // server yet; sent when an operation requires them, they work everywhere.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const get = (key: string) => unlessMissing(client.send(new GetObjectCommand({ Bucket: bucket, Key: key })), isMissing)

  return {
    where: `s3://${bucket}`,
    localDir: undefined,

    async put(key, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: data,
          ContentType: contentTypeOf(key),
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      )
    },

    async open(key) {
      const object = await get(key)
      if (!object?.Body) return undefined
      return {
        body: object.Body as Readable,
        size: object.ContentLength ?? 0,
        etag: object.ETag,
        lastModified: object.LastModified,
      }
    },

    async read(key) {
      const object = await get(key)
      return object?.Body ? readAll(object.Body as Readable) : undefined
    },

    async sizeOf(key) {
      const head = await unlessMissing(client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })), isMissing)
      return head?.ContentLength
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
    },

    close() {
      client.destroy()
    },
  }
}
