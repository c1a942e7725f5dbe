/** The preset avatars, served by the client build from client/public/avatars; the server accepts exactly these paths. */
export const PRESET_AVATARS = [
  '/avatars/avatar-1.svg',
  '/avatars/avatar-2.svg',
  '/avatars/avatar-3.svg',
  '/avatars/avatar-4.svg',
  '/avatars/avatar-5.svg',
  '/avatars/avatar-6.svg',
] as const

/**
 * The preset a new account starts with when it chose none: one of `presets`, picked by a stable hash
 * (FNV-1a) of the username without regard to case, so the same name always gets the same one and new
 * accounts do not all look alike.
 */
export function defaultAvatarOf<T extends string>(username: string, presets: readonly [T, ...T[]]): T {
  let hash = 0x811c9dc5
  for (const char of username.toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return presets[hash % presets.length] ?? presets[0]
}
