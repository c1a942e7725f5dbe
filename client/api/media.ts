import { http } from './http.js'
import type { MediaReply } from './types.js'

/** Uploads one image (multipart field `file`) and answers the /media/ URL to put in a post. */
export async function apiUploadMedia(file: File): Promise<string> {
  const form = new FormData()
  form.append('file', file)
  const reply = await http<MediaReply>('/media', { method: 'POST', body: form })
  return reply.url
}
