import type { Config } from '../config.js'
import { createLocalMediaStorage } from './local-media-storage.js'
import type { MediaStorage } from './media-storage.js'
import { createS3MediaStorage } from './s3-media-storage.js'

/** The bucket when S3_BUCKET is set, else MEDIA_DIR: with a bucket, nothing is written to the disk. */
export function openMediaStorage(config: Pick<Config, 'mediaDir' | 's3'>): MediaStorage {
  return config.s3 ? createS3MediaStorage(config.s3) : createLocalMediaStorage(config.mediaDir)
}
