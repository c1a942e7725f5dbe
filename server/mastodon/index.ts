import type { FastifyInstance } from 'fastify'
import { installMastodonErrors, installMastodonNotFound } from './errors.js'
import { installCors } from './cors.js'
import { installFormBodies } from './form-bodies.js'
import { installRateLimitHeaders } from './rate-limit-headers.js'
import { installScopeGuard } from './scopes-guard.js'
import accountRoutes from './account-routes.js'
import instanceRoutes from './instance-routes.js'
import authorizeRoutes from './authorize-routes.js'
import collectionRoutes from './collection-routes.js'
import conversationRoutes from './conversation-routes.js'
import credentialRoutes from './credential-routes.js'
import groupedNotificationRoutes from './grouped-notification-routes.js'
import notificationRoutes from './notification-routes.js'
import oauthRoutes from './oauth-routes.js'
import peopleRoutes from './people-routes.js'
import relationRoutes from './relation-routes.js'
import reportRoutes from './report-routes.js'
import searchRoutes from './search-routes.js'
import statusRoutes from './status-routes.js'
import streamingRoutes from './streaming-routes.js'
import mediaRoutes from './media-routes.js'
import pollRoutes from './poll-routes.js'
import pushRoutes from './push-routes.js'
import timelineRoutes from './timeline-routes.js'
import trendRoutes from './trend-routes.js'
import filterRoutes from './filter-routes.js'
import listRoutes from './list-routes.js'
import scheduledRoutes from './scheduled-routes.js'
import statusEditRoutes from './status-edit-routes.js'
import type { MastodonOptions } from './options.js'

/**
 * Mastodon's client API (DECISIONS §13), a second face over Chirp's services: its routes translate
 * Mastodon's requests into calls of the same services Chirp's own /api calls, and their answers into
 * Mastodon's entities. Its errors, bodies, CORS and scopes hold on its paths alone.
 */
export default async function mastodon(app: FastifyInstance, options: MastodonOptions) {
  installCors(app)
  installFormBodies(app)
  installMastodonErrors(app)
  installScopeGuard(app)
  installRateLimitHeaders(app)
  // Preflights: answered by the CORS hook before they reach these.
  for (const path of ['/api/v1/*', '/api/v2/*', '/oauth/token', '/oauth/revoke']) {
    app.options(path, { schema: { hide: true } }, async (_request, reply) => reply.code(204).send())
  }
  await app.register(oauthRoutes, options)
  await app.register(authorizeRoutes, options)
  await app.register(instanceRoutes, options)
  await app.register(accountRoutes, options)
  await app.register(peopleRoutes, options)
  await app.register(timelineRoutes, options)
  await app.register(statusRoutes, options)
  await app.register(statusEditRoutes, options)
  await app.register(scheduledRoutes, options)
  await app.register(mediaRoutes, options)
  await app.register(pollRoutes, options)
  await app.register(collectionRoutes, options)
  await app.register(searchRoutes, options)
  await app.register(notificationRoutes, options)
  await app.register(streamingRoutes, options)
  await app.register(groupedNotificationRoutes, options)
  await app.register(relationRoutes, options)
  await app.register(reportRoutes, options)
  await app.register(conversationRoutes, options)
  await app.register(credentialRoutes, options)
  await app.register(trendRoutes, options)
  await app.register(pushRoutes, options)
  await app.register(filterRoutes, options)
  await app.register(listRoutes, options)
  await installMastodonNotFound(app)
}
