import * as MSG from '../../common/messages.js'
import type { MAX_UPLOAD_BYTES } from '../../server/schemas/media.js'

/** The upload ceiling (docs/api-contract.md §6); the server enforces the same number (MAX_UPLOAD_BYTES). */
export const MAX_IMAGE_BYTES: typeof MAX_UPLOAD_BYTES = 20_971_520

/** What the client checks before an upload: null when the file may be uploaded, else the message to show. */
export function checkImageFile(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return MSG.uploadNotImage
  if (file.size >= MAX_IMAGE_BYTES) return MSG.uploadTooLarge
  return null
}
