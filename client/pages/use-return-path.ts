import { useSearch } from 'wouter'
import { returnPath } from '../paths.js'

/** Where the auth guard sent the visitor from (`?from=`), as a path on this site, or home. */
export function useReturnPath(): string {
  return returnPath(new URLSearchParams(useSearch()).get('from'))
}
