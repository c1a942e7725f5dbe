import { PRESET_AVATARS } from '../schemas/media.js'

/** A file this server stored under /media/: a server-chosen name, nothing that could climb out of the folder. */
export const MEDIA_PATH = /^\/media\/[0-9a-f-]{36}\.(jpg|png|gif|webp)$/

/**
 * Characters a URL parser drops or reads two ways: spaces and controls (stripped, so `java\tscript:` is
 * `javascript:`), backslashes (a slash to browsers, not to every parser) and invisible format characters
 * (zero-width and bidi overrides, which make a link read as another address). A real link needs none.
 */
const AMBIGUOUS = /[\s\\\p{Cc}\p{Cf}]/u

function parseAbsolute(value: string, schemes: readonly string[]): boolean {
  // Protocol-relative (//host) and other scheme-less forms are relative to the page, so never accepted.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || AMBIGUOUS.test(value)) return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  return schemes.includes(url.protocol) && url.hostname !== '' && url.username === '' && url.password === ''
}

/** Website: empty, or an absolute http(s) URL without credentials. */
export const isValidWebsite = (value: string) => value === '' || parseAbsolute(value, ['http:', 'https:'])

/** Post media: empty, an uploaded file, or an absolute https URL. */
export const isValidMediaUrl = (value: string) =>
  value === '' || MEDIA_PATH.test(value) || parseAbsolute(value, ['https:'])

/** Avatar: a preset, an uploaded file, or an absolute https URL. */
export const isValidAvatarUrl = (value: string) =>
  (PRESET_AVATARS as readonly string[]).includes(value) || MEDIA_PATH.test(value) || parseAbsolute(value, ['https:'])
