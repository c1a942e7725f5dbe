import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { UserResult } from '../schemas/search.js'
import type { Post } from '../schemas/posts.js'
import { accountOf } from './account-entity.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { AccountSchema } from './schemas.js'
import { readerIdOf, statusesOf } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const SearchQuerySchema = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.Optional(Type.Union([Type.Literal('accounts'), Type.Literal('statuses'), Type.Literal('hashtags')])),
  resolve: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })])),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
})
/** The people a search looks through before it keeps the ones a filter asks for. */
const MAX_SCANNED = 80

const SearchSchema = Type.Object(
  {
    accounts: Type.Array(AccountSchema),
    statuses: Type.Array(StatusSchema),
    hashtags: Type.Array(Type.Object({ name: Type.String(), url: Type.String(), history: Type.Array(Type.Unknown()) })),
  },
  { title: 'MastodonSearch' },
)

/**
 * Search (version 2) over Chirp's search service: people by username (`@name`, or `name@` this server) and
 * by the beginnings of their names, and public posts by their words. Chirp pages search by cursor, which
 * Mastodon's `offset` cannot carry: a search answers its first page, and nothing past it.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const host = new URL(publicUrl).host

  /**
   * People by username (`@name`, or `name@` this server) and by the beginnings of their names, the first
   * `limit` of them; the ones the reader follows alone with `following`.
   */
  async function peopleMatching(q: string, limit: number, readerId: string | undefined, following = false) {
    const [name = '', domain] = q.replace(/^@/, '').split('@')
    const asUsername = domain === undefined || domain === host ? `@${name}` : undefined
    const reader = { userId: readerId, compact: false }
    const found = await Promise.all(
      [asUsername, q.startsWith('@') ? undefined : q].flatMap((each) =>
        each === undefined
          ? []
          : [services.search.search({ q: each, type: 'users', limit: following ? MAX_SCANNED : limit }, reader)],
      ),
    )
    const followed =
      following && readerId !== undefined
        ? new Set((await services.users.own(readerId)).user.following.map((person) => person._id))
        : undefined
    const seen = new Set<string>()
    return found
      .flatMap((page) => ('users' in page ? page.users : []))
      .filter((user) => !seen.has(user._id) && seen.add(user._id))
      .filter((user) => followed === undefined || followed.has(user._id))
      .slice(0, limit)
  }

  const accountsOf = (people: readonly UserResult[], readerId: string | undefined) =>
    Promise.all(people.map(async (user) => accountOf((await services.users.get(user._id, readerId)).user, publicUrl)))

  app.get(
    '/api/v2/search',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: 'Accounts and statuses matching `q`, as the reader may see them; the first page alone.',
        querystring: SearchQuerySchema,
        response: { 200: SearchSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const { type, offset = 0 } = request.query
      const readerId = readerIdOf(request)
      const reader = { userId: readerId, compact: false }
      const limit = Math.min(request.query.limit ?? 20, 40)
      const q = request.query.q.trim()
      if (offset > 0 || q === '') return { accounts: [], statuses: [], hashtags: [] }
      const people = type === undefined || type === 'accounts' ? await peopleMatching(q, limit, readerId) : []
      let posts: Post[] = []
      if ((type === undefined || type === 'statuses') && !q.startsWith('@')) {
        const page = await services.search.search({ q, type: 'posts', limit }, reader)
        posts = 'posts' in page ? page.posts : []
      }
      const [accounts, statuses] = await Promise.all([
        accountsOf(people, readerId),
        statusesOf(services, publicUrl, posts, readerId),
      ])
      return { accounts, statuses, hashtags: [] }
    },
  )

  app.get(
    '/api/v1/accounts/search',
    {
      config: { scope: 'read:accounts' },
      schema: {
        tags: ['mastodon'],
        description:
          'Accounts by username (`@name`, or `name@` this server) or by the beginnings of their names; `following` keeps those the person follows. The first page alone.',
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 200 }),
          limit: Type.Optional(Type.Integer({ minimum: 1 })),
          offset: Type.Optional(Type.Integer({ minimum: 0 })),
          resolve: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })])),
          following: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })])),
        }),
        response: { 200: Type.Array(AccountSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const { offset = 0, following } = request.query
      const q = request.query.q.trim()
      if (offset > 0 || q === '') return []
      const readerId = request.user._id
      const limit = Math.min(request.query.limit ?? 40, 80)
      const onlyFollowed = following === true || following === 'true' || following === '1'
      return accountsOf(await peopleMatching(q, limit, readerId, onlyFollowed), readerId)
    },
  )
}

export default routes
