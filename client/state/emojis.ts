import { proxy } from 'valtio'
import type { EmojiUse } from '../../common/custom-emoji.js'
import { apiAddEmoji, apiCustomEmojis, apiDeleteEmoji } from '../api/emojis.js'

/** The community's custom emoji, for the picker and the admin screen: read once, again after a change. */
export const emojis = proxy({ list: [] as EmojiUse[], loaded: false })

export function resetEmojis(): void {
  emojis.list = []
  emojis.loaded = false
}

export async function loadEmojis(force = false): Promise<void> {
  if (emojis.loaded && !force) return
  try {
    emojis.list = await apiCustomEmojis()
    emojis.loaded = true
  } catch {
    // Without the list the picker offers the standard emoji only; the next composer asks again.
  }
}

/** Adds an emoji; errors reach the caller, to be shown by the field they concern. */
export async function addEmoji(shortcode: string, file: File): Promise<void> {
  await apiAddEmoji(shortcode, file)
  await loadEmojis(true)
}

export async function deleteEmoji(shortcode: string): Promise<void> {
  await apiDeleteEmoji(shortcode)
  await loadEmojis(true)
}
