import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { instanceV1, instanceV2 } from './instance.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { InstanceV1Schema, InstanceV2Schema } from './schemas.js'

/** What an app reads first: the server it talks to, its limits and where its stream is. */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl, registration }) => {
  app.get(
    '/api/v1/instance',
    {
      schema: {
        tags: ['mastodon'],
        description: "The server, as Mastodon's Instance entity (version 1); with or without a trailing slash.",
        response: { 200: InstanceV1Schema, ...ERROR_REPLIES },
      },
    },
    async () => instanceV1({ publicUrl, registration, community: await services.clientApps.community() }),
  )

  app.get(
    '/api/v2/instance',
    {
      schema: {
        tags: ['mastodon'],
        description:
          "The server, as Mastodon's Instance entity (version 2), with its streaming address and API version.",
        response: { 200: InstanceV2Schema, ...ERROR_REPLIES },
      },
    },
    async () => instanceV2({ publicUrl, registration, vapidKey: services.push.publicKey }),
  )
}

export default routes
