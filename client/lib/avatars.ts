import type { PRESET_AVATARS as SERVER_PRESETS } from '../../server/schemas/media.js'

/**
 * The 3 preset avatars shipped in client/public/avatars; signup defaults to the first.
 * The server accepts exactly these paths, and the type check keeps both lists the same.
 */
export const PRESET_AVATARS: typeof SERVER_PRESETS = [
  '/avatars/avatar-1.svg',
  '/avatars/avatar-2.svg',
  '/avatars/avatar-3.svg',
]
