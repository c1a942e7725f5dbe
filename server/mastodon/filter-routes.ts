import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type, type Static } from '@sinclair/typebox'
import type { FilterKeywordRecord, FilterRecord, KeywordInput } from '../services/filters.js'
import { ERROR_REPLIES, orNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'

const KeywordSchema = Type.Object(
  { id: Type.String(), keyword: Type.String(), whole_word: Type.Boolean() },
  { title: 'MastodonFilterKeyword' },
)
const FilterSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    context: Type.Array(Type.String()),
    expires_at: Type.Union([Type.String(), Type.Null()]),
    filter_action: Type.String(),
    keywords: Type.Array(KeywordSchema),
    statuses: Type.Array(Type.Unknown()),
  },
  { title: 'MastodonFilter' },
)
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const Flag = Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })])
const Text = Type.String({ maxLength: 1000 })
const KeywordBody = Type.Object({ keyword: Type.Optional(Text), whole_word: Type.Optional(Flag) })
const KeywordAttributes = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 100 })),
  keyword: Type.Optional(Text),
  whole_word: Type.Optional(Flag),
  _destroy: Type.Optional(Flag),
})
/** A filter as a JSON body or an HTML form sends it (`context[]`, `keywords_attributes[][keyword]`). */
const FilterBody = Type.Object({
  title: Type.Optional(Text),
  context: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 }), Type.String()])),
  filter_action: Type.Optional(Type.Union([Type.Literal('warn'), Type.Literal('hide')])),
  expires_in: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 12 }), Type.Null()])),
  keywords_attributes: Type.Optional(
    Type.Union([Type.Array(KeywordAttributes, { maxItems: 100 }), Type.Record(Type.String(), KeywordAttributes)]),
  ),
})
type FilterBodyType = Static<typeof FilterBody>

const on = (flag: boolean | string | undefined) =>
  flag === undefined ? undefined : flag === true || flag === 'true' || flag === '1'

const keywordEntity = (keyword: FilterKeywordRecord) => ({
  id: keyword._id,
  keyword: keyword.keyword,
  whole_word: keyword.wholeWord,
})

const filterEntity = (filter: FilterRecord) => ({
  id: filter._id,
  title: filter.title,
  context: [...filter.contexts],
  expires_at: filter.expiresAt,
  filter_action: filter.action,
  keywords: filter.keywords.map(keywordEntity),
  statuses: [],
})

/**
 * A form's `keywords_attributes[][keyword]` (and `[0][keyword]`) fields folded into `keywords_attributes`,
 * in order, before the body is checked: the JSON form of the same list.
 */
async function foldFormKeywords(request: FastifyRequest) {
  const body = request.body
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return
  const fields = body as Record<string, unknown>
  const form = new Map<string, Record<string, string>>()
  for (const [name, value] of Object.entries(fields)) {
    const match = /^keywords_attributes\[(\d*)\]\[(id|keyword|whole_word|_destroy)\]$/.exec(name)
    if (!match) continue
    delete fields[name]
    const values = Array.isArray(value) ? value : [value]
    values.forEach((one, i) => {
      const key = match[1] === '' ? String(i) : (match[1] ?? '')
      const entry: Record<string, string> = { ...form.get(key) }
      entry[match[2] ?? ''] = String(one)
      form.set(key, entry)
    })
  }
  if (form.size > 0) fields.keywords_attributes = [...form.values()]
}

/** The keywords of a body, a list or an object of them. */
function keywordsOf(body: FilterBodyType): KeywordInput[] | undefined {
  const given = body.keywords_attributes
  if (given === undefined) return undefined
  return (Array.isArray(given) ? given : Object.values(given)).map((each) => ({
    id: each.id,
    keyword: each.keyword,
    wholeWord: on(each.whole_word),
    destroy: on(each._destroy) === true,
  }))
}

function filterInputOf(body: FilterBodyType) {
  const context = body.context === undefined ? undefined : Array.isArray(body.context) ? body.context : [body.context]
  const expires = body.expires_in
  const expiresIn =
    expires === undefined ? undefined : expires === null || expires === '' ? null : Number(expires) || null
  return {
    title: body.title,
    contexts: context,
    action: body.filter_action,
    expiresIn,
    keywords: keywordsOf(body),
  }
}

/**
 * Keyword filters, Mastodon's filters v2 (DECISIONS §15), over the filters service: the person's own alone,
 * anyone else's answering 404 as an unknown one does.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services }) => {
  const { filters } = services
  const read = { config: { scope: 'read:filters' } } as const
  const write = { config: { scope: 'write:filters' } } as const
  const tags = ['mastodon']

  app.get(
    '/api/v2/filters',
    {
      ...read,
      schema: {
        tags,
        description: "The person's filters.",
        response: { 200: Type.Array(FilterSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => (await filters.list(request.user._id)).map(filterEntity),
  )

  app.post(
    '/api/v2/filters',
    {
      ...write,
      preValidation: foldFormKeywords,
      schema: {
        tags,
        description: 'Makes a filter, with its keywords.',
        body: FilterBody,
        response: { 200: FilterSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => filterEntity(await filters.create(request.user._id, filterInputOf(request.body))),
  )

  app.get(
    '/api/v2/filters/:id',
    {
      ...read,
      schema: { tags, description: 'One filter.', params: IdParams, response: { 200: FilterSchema, ...ERROR_REPLIES } },
    },
    async (request) => filterEntity(await orNotFound(filters.get(request.user._id, request.params.id))),
  )

  app.put(
    '/api/v2/filters/:id',
    {
      ...write,
      preValidation: foldFormKeywords,
      schema: {
        tags,
        description:
          'Changes a filter: what is sent, and its keywords by `keywords_attributes` (with `id`, `_destroy`).',
        params: IdParams,
        body: FilterBody,
        response: { 200: FilterSchema, ...ERROR_REPLIES },
      },
    },
    async (request) =>
      filterEntity(await orNotFound(filters.update(request.user._id, request.params.id, filterInputOf(request.body)))),
  )

  app.delete(
    '/api/v2/filters/:id',
    {
      ...write,
      schema: {
        tags,
        description: 'Deletes a filter.',
        params: IdParams,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      await orNotFound(filters.remove(request.user._id, request.params.id))
      return {}
    },
  )

  app.get(
    '/api/v2/filters/:id/keywords',
    {
      ...read,
      schema: {
        tags,
        description: "A filter's keywords.",
        params: IdParams,
        response: { 200: Type.Array(KeywordSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => (await orNotFound(filters.get(request.user._id, request.params.id))).keywords.map(keywordEntity),
  )

  app.post(
    '/api/v2/filters/:id/keywords',
    {
      ...write,
      schema: {
        tags,
        description: 'Adds a keyword to a filter.',
        params: IdParams,
        body: KeywordBody,
        response: { 200: KeywordSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const { keyword, whole_word } = request.body
      const added = await orNotFound(
        filters.addKeyword(request.user._id, request.params.id, { keyword, wholeWord: on(whole_word) }),
      )
      return keywordEntity(added.keyword)
    },
  )

  app.get(
    '/api/v2/filter_keywords/:id',
    {
      ...read,
      schema: {
        tags,
        description: 'One keyword.',
        params: IdParams,
        response: { 200: KeywordSchema, ...ERROR_REPLIES },
      },
    },
    async (request) =>
      keywordEntity((await orNotFound(filters.keywordOf(request.user._id, request.params.id))).keyword),
  )

  app.put(
    '/api/v2/filter_keywords/:id',
    {
      ...write,
      schema: {
        tags,
        description: 'Changes a keyword.',
        params: IdParams,
        body: KeywordBody,
        response: { 200: KeywordSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const { keyword, whole_word } = request.body
      const changed = await orNotFound(
        filters.updateKeyword(request.user._id, request.params.id, { keyword, wholeWord: on(whole_word) }),
      )
      return keywordEntity(changed.keyword)
    },
  )

  app.delete(
    '/api/v2/filter_keywords/:id',
    {
      ...write,
      schema: {
        tags,
        description: 'Deletes a keyword.',
        params: IdParams,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      await orNotFound(filters.removeKeyword(request.user._id, request.params.id))
      return {}
    },
  )
}

export default routes
