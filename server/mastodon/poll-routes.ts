import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { unprocessableEntity } from '../errors.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { pollOf } from './status-entity.js'
import { readerIdOf, recordOr404 } from './status-page.js'
import { PollEntitySchema } from './status-schemas.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const OnePoll = { 200: PollEntitySchema, ...ERROR_REPLIES }

/** `choices[]` as a form or JSON: indexes of the options; a form's one `choices` arrives as text. */
const ChoiceSchema = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,3}$' })])
const VoteBodySchema = Type.Object({ choices: Type.Union([Type.Array(ChoiceSchema, { maxItems: 20 }), ChoiceSchema]) })

export const pollMessages = { oneChoice: 'Validation failed: a poll takes one choice' }

/**
 * Polls (DECISIONS §13): a post's poll, whose id is the post's, read and voted on through the posts and
 * polls services, as the reader may see the post. A Chirp poll takes one choice a person.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services }) => {
  /** The poll of the post, as the reader sees it; a 404 for a post without one or one they may not see. */
  async function pollFor(id: string, readerId: string | undefined) {
    const { post } = await recordOr404(services.posts.get(id, readerId))
    const poll = pollOf(post)
    if (!poll) throw recordNotFound()
    return poll
  }

  app.get(
    '/api/v1/polls/:id',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: "A post's poll, with the counts and the reader's own vote as Chirp shows them to the reader.",
        params: IdParams,
        response: OnePoll,
      },
    },
    async (request) => pollFor(request.params.id, readerIdOf(request)),
  )

  app.post(
    '/api/v1/polls/:id/votes',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags: ['mastodon'],
        description:
          'Votes in a poll, once: `choices[]` holds the index of one option. Answers the poll as it then is.',
        params: IdParams,
        body: VoteBodySchema,
        response: OnePoll,
      },
    },
    async (request) => {
      const userId = request.user._id
      const choices = [request.body.choices].flat().map(Number)
      const [choice] = choices
      if (choice === undefined || choices.length !== 1) throw unprocessableEntity(pollMessages.oneChoice)
      await pollFor(request.params.id, userId)
      await services.polls.vote(userId, request.params.id, choice)
      return pollFor(request.params.id, userId)
    },
  )
}

export default routes
