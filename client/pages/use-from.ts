import { useSearch } from 'wouter'

/** Where the auth guard sent the visitor from, as `?from=`. */
export function useFrom(): string | null {
  return new URLSearchParams(useSearch()).get('from')
}
