import { MEDIA_KEY } from './media-storage.js'

/** Where Chirp itself serves uploads, from whichever storage holds them. */
const SERVED_AT = '/media/'

/**
 * Whether a URL may name an upload of this server's: its last segment is an upload's key. It says so
 * without the settings, for whoever only needs to know whether to look closer (media-deletion.ts).
 */
export const mayNameUpload = (url: string): boolean => MEDIA_KEY.test(url.slice(url.lastIndexOf('/') + 1))

/** How uploads are named in posts and profiles, and which URLs name one of this server's uploads. */
export interface MediaUrls {
  /** The URL a new upload is given: under the bucket's public address when there is one, else under /media/. */
  urlOf(key: string): string
  /** The upload a URL names, when it is one of this server's: a /media/ path, or the bucket's public address. */
  keyOf(url: string): string | undefined
  /** Every URL that names the upload, so nothing still showing it under another one loses it. */
  formsOf(key: string): string[]
}

/**
 * Uploads made before S3_PUBLIC_URL was set keep their /media/ URLs, which Chirp goes on serving, so
 * both forms name the same upload.
 */
export function createMediaUrls(publicUrl: string | undefined): MediaUrls {
  const publicPrefix = publicUrl === undefined ? undefined : `${publicUrl}/`
  const keyAfter = (url: string, prefix: string | undefined) => {
    if (prefix === undefined || !url.startsWith(prefix)) return undefined
    const key = url.slice(prefix.length)
    return MEDIA_KEY.test(key) ? key : undefined
  }
  return {
    urlOf: (key) => `${publicPrefix ?? SERVED_AT}${key}`,
    keyOf: (url) => keyAfter(url, SERVED_AT) ?? keyAfter(url, publicPrefix),
    formsOf: (key) => [`${SERVED_AT}${key}`, ...(publicPrefix ? [`${publicPrefix}${key}`] : [])],
  }
}
