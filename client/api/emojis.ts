import type { EmojiUse } from '../../common/custom-emoji.js'
import { http, upload } from './http.js'

/** The community's custom emoji, from Mastodon's route (DECISIONS §17), by shortcode. */
export async function apiCustomEmojis(): Promise<EmojiUse[]> {
  const found = await http<{ shortcode: string; url: string }[]>('/v1/custom_emojis')
  return found.map(({ shortcode, url }) => ({ shortcode, url }))
}

/** Adds a custom emoji (admins). */
export function apiAddEmoji(shortcode: string, file: File): Promise<EmojiUse> {
  const body = new FormData()
  body.append('shortcode', shortcode)
  body.append('file', file)
  return upload<EmojiUse>('/admin/emojis', body)
}

export async function apiDeleteEmoji(shortcode: string): Promise<void> {
  await http(`/admin/emojis/${encodeURIComponent(shortcode)}`, { method: 'DELETE' })
}
