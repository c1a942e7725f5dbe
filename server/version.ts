import { readFileSync } from 'node:fs'

/** Chirp's version, from the package.json above this file (from server/ and from dist/server/ alike): what the Mastodon API's instance and NodeInfo name. */
export function chirpVersion(): string {
  for (const place of ['../../package.json', '../../../package.json']) {
    try {
      const found = JSON.parse(readFileSync(new URL(place, import.meta.url), 'utf8')) as {
        name?: unknown
        version?: unknown
      }
      if (found.name === 'chirp' && typeof found.version === 'string') return found.version
    } catch {
      // Not here: one folder further up.
    }
  }
  return '0.0.0'
}
