import type { Readable } from 'node:stream'

/**
 * The name of an upload in the store: a server-chosen uuid and the image's type, nothing that could climb
 * out of a folder or name another object in a bucket.
 */
export const MEDIA_KEY = /^[0-9a-f-]{36}\.(jpg|png|gif|webp)$/

const TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
}

/** The content type of an upload, by its key's extension (which the server chose from its bytes). */
export function contentTypeOf(key: string): string {
  return TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
}

/** A stored upload opened for reading. */
interface StoredMedia {
  body: Readable
  size: number
  /** A validator for conditional requests, in quotes as HTTP writes it; absent when the store has none. */
  etag: string | undefined
  lastModified: Date | undefined
}

/**
 * Where uploads are kept: a folder on the disk, or a bucket of an S3-compatible service. Keys are
 * MEDIA_KEY names; an object is written whole or not at all, and never changes after.
 */
export interface MediaStorage {
  /** Says where, for the operator's messages: the folder, or `s3://bucket`. */
  readonly where: string
  /** The folder that holds the files, when they are on this machine's disk; the app then serves it as static files. */
  readonly localDir: string | undefined
  /** Writes an object durably under its key. */
  put(key: string, data: Buffer): Promise<void>
  /** The object, opened, or undefined when there is none. */
  open(key: string): Promise<StoredMedia | undefined>
  /** The object's bytes, or undefined when there is none. */
  read(key: string): Promise<Buffer | undefined>
  /** The object's size in bytes, or undefined when there is none. */
  sizeOf(key: string): Promise<number | undefined>
  /** Deletes the object; one already gone is no error. */
  remove(key: string): Promise<void>
  /** Lets go of connections. */
  close(): void
}

/** Reads a stream whole. */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** What `work` gives, or undefined when it fails because the thing is not there. */
export async function unlessMissing<T>(
  work: Promise<T>,
  isMissing: (error: unknown) => boolean,
): Promise<T | undefined> {
  try {
    return await work
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
}
