import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { Checked, StaffNeed } from '../services/moderation-access.js'
import { me, type RouteOptions } from './shared.js'

/** What a staff scope hands its routes: the services, and the caller its hooks let through. */
export interface StaffRouteOptions<N extends StaffNeed> extends RouteOptions {
  /** The checked caller of a request of this scope: what the staff services take in place of an id. */
  staff: (request: FastifyRequest) => Checked<N>
}

/**
 * Routes only staff may call (DECISIONS §8), as one encapsulated scope: its hooks sign the caller in (401)
 * and refuse anyone without the role `need` names (403 "You are not allowed to do this.") before the body
 * is read or validated, so a route registered in it cannot forget the check. The checked caller reaches the
 * routes through `staff(request)`; a route outside the scope is never handed it.
 */
export function staffScope<N extends StaffNeed>(
  need: N,
  routes: FastifyPluginAsyncTypebox<StaffRouteOptions<N>>,
): FastifyPluginAsyncTypebox<RouteOptions> {
  return async (scope, options) => {
    const checked = new WeakMap<FastifyRequest, Checked<N>>()
    scope.addHook('onRequest', scope.authenticate)
    scope.addHook('onRequest', async (request) => {
      checked.set(request, await options.services.moderation.staffMember(me(request), need))
    })
    const staff = (request: FastifyRequest) => {
      const member = checked.get(request)
      // The hooks above ran for every request of this scope, and no route outside it has this function.
      if (!member) throw new Error(`${request.method} ${request.url} reached a staff route unchecked`)
      return member
    }
    await scope.register(routes, { ...options, staff })
  }
}
