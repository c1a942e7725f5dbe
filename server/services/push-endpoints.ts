import type { LookupFunction } from 'node:net'
import { badRequest, MSG } from '../errors.js'
import { createAddressRules, LinkFetchError, type LinkFetchOptions } from './link-fetch.js'

/**
 * Where pushes may go (DECISIONS §15): an https push service on its default port whose every address is
 * public, as the link fetcher's rules say; hosts in PUSH_ALLOW (tests only) are taken whatever they
 * resolve to and on any port. The rules hold when a subscription is made and again at every send.
 */
export function pushEndpointRules(options: Pick<LinkFetchOptions, 'allow' | 'resolve'>) {
  const rules = createAddressRules(options)
  return {
    /** A 400 unless pushes may go to `endpoint`. */
    async check(endpoint: string): Promise<void> {
      if (!URL.canParse(endpoint) || endpoint.length > 2048) throw badRequest(MSG.pushEndpointInvalid)
      try {
        await rules.checkResolved(new URL(endpoint))
      } catch (error) {
        if (error instanceof LinkFetchError) throw badRequest(MSG.pushEndpointInvalid)
        throw error
      }
    },
    /** The lookup of a connection to `endpoint`, refusing what check refuses. */
    lookupFor(endpoint: string): LookupFunction {
      const url = new URL(endpoint)
      rules.check(url)
      return rules.lookupFor(url)
    },
  }
}
