import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import { AppError } from '../errors.js'
import { covers, type Scope } from '../services/scopes.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a Mastodon route needs: the route then needs a signed-in person's token that was granted it
     * (a Chirp session has every scope, DECISIONS §17); without it the route is open.
     */
    scope?: Scope
  }
}

/** Mastodon's refusal of a token whose scopes do not cover what it asks for. */
export const OUT_OF_SCOPE = 'This action is outside the authorized scopes'

/** The scopes of the request's token; every one for Chirp's own session. */
const scopesOf = (request: FastifyRequest): readonly string[] | undefined => request.user.token.scopes

/**
 * Installs the `scope` route option on every route registered after it in this context: the token is
 * checked as for any protected Chirp route (logged out, every session ended, suspended), then its scopes.
 */
export function installScopeGuard(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const scope = route.config?.scope
    if (scope === undefined) return
    const guard: onRequestAsyncHookHandler = async (request) => {
      await app.authenticate(request)
      const granted = scopesOf(request)
      if (granted !== undefined && !covers(granted, scope)) {
        throw new AppError(403, OUT_OF_SCOPE)
      }
    }
    const others =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]
    route.onRequest = [guard, ...others]
  })
}
