import type { Multipart } from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { FastifyRequest } from 'fastify'
import type { Visibility } from '../../common/audience.js'
import * as MSG from '../../common/messages.js'
import { AppError, forbidden } from '../errors.js'
import { MAX_UPLOAD_BYTES } from '../schemas/media.js'
import { SignupBodySchema, type UserEdit } from '../schemas/users.js'
import { uploadError } from '../services/media.js'
import { covers } from '../services/scopes.js'
import { ownAccountOf } from './account-entity.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { CredentialAccountSchema, TokenSchema } from './schemas.js'

/** Mastodon's audiences by Chirp's names: `private` is Chirp's `followers`. */
const PRIVACY: Record<string, Visibility> = {
  public: 'public',
  unlisted: 'unlisted',
  private: 'followers',
  direct: 'direct',
}
const Flag = Type.Union([
  Type.Boolean(),
  Type.Literal('true'),
  Type.Literal('false'),
  Type.Literal('1'),
  Type.Literal('0'),
])
const on = (flag: Static<typeof Flag>) => flag === true || flag === 'true' || flag === '1'
/** Far longer than any text of a profile: Chirp's profile edit holds each to its own limit. */
const MAX_TEXT = 2048
const Text = (maxLength: number) => Type.String({ maxLength })
const FieldPair = Type.Object({ name: Type.Optional(Text(255)), value: Type.Optional(Text(MAX_TEXT)) })

/**
 * The text fields of update_credentials as they arrive: JSON, or a form (flat, `source[privacy]`), or
 * the text parts of a multipart body. Fields Chirp has no place for are read and left alone.
 */
const CredentialsSchema = Type.Object({
  display_name: Type.Optional(Text(MAX_TEXT)),
  note: Type.Optional(Text(MAX_TEXT)),
  locked: Type.Optional(Flag),
  bot: Type.Optional(Flag),
  discoverable: Type.Optional(Flag),
  source: Type.Optional(Type.Object({ privacy: Type.Optional(Text(16)) })),
  'source[privacy]': Type.Optional(Text(16)),
  fields_attributes: Type.Optional(
    Type.Union([Type.Array(FieldPair, { maxItems: 16 }), Type.Record(Type.String(), FieldPair)]),
  ),
})
type Credentials = Static<typeof CredentialsSchema>
/** A form's `fields_attributes[0][name]` and `[value]`. */
const FORM_FIELD = /^fields_attributes\[(\d{1,2})\]\[(name|value)\]$/
/** The text parts a multipart update_credentials may carry besides its two images. */
const MAX_TEXT_PARTS = 60

/** Chirp's signup's own rules for the username, the address and the password. */
const SignupSchema = Type.Object({
  username: SignupBodySchema.properties.username,
  email: SignupBodySchema.properties.email,
  password: SignupBodySchema.properties.password,
  agreement: Flag,
  locale: Type.Optional(Text(16)),
  reason: Type.Optional(Text(500)),
  invite_code: Type.Optional(Text(100)),
  date_of_birth: Type.Optional(Text(16)),
})

const unprocessable = (what: string) => new AppError(422, `Validation failed: ${what}`)

/** The website among profile fields: Chirp's one field is named so; the others have no place to be kept. */
function websiteOf(credentials: Credentials, form: Record<string, string>): string | undefined {
  const pairs: { name?: string | undefined; value?: string | undefined }[] = []
  const given = credentials.fields_attributes
  if (given !== undefined) pairs.push(...(Array.isArray(given) ? given : Object.values(given)))
  const indexed = new Map<string, { name?: string; value?: string }>()
  for (const [key, value] of Object.entries(form)) {
    const match = FORM_FIELD.exec(key)
    if (!match) continue
    const [, index = '', part = 'name'] = match
    indexed.set(index, { ...indexed.get(index), [part]: value })
  }
  pairs.push(...indexed.values())
  if (given === undefined && indexed.size === 0) return undefined
  const website = pairs.find((pair) => pair.name?.trim().toLowerCase() === 'website')
  return website?.value?.trim() ?? ''
}

/** What the fields ask of Chirp's profile edit. */
function editOf(credentials: Credentials, form: Record<string, string>): Omit<UserEdit, 'username' | 'token'> {
  const privacy = credentials.source?.privacy ?? credentials['source[privacy]']
  const visibility = privacy === undefined ? undefined : PRIVACY[privacy]
  if (privacy !== undefined && visibility === undefined) {
    throw unprocessable('Privacy must be public, unlisted, private or direct')
  }
  const website = websiteOf(credentials, form)
  return {
    ...(credentials.display_name === undefined ? {} : { displayName: credentials.display_name.trim() }),
    ...(credentials.note === undefined ? {} : { bio: credentials.note }),
    ...(credentials.locked === undefined ? {} : { locked: on(credentials.locked) }),
    ...(visibility === undefined ? {} : { defaultVisibility: visibility }),
    ...(website === undefined ? {} : { website }),
  }
}

function checked<T extends Parameters<typeof Value.Check>[0]>(schema: T, value: unknown): Static<T> {
  if (Value.Check(schema, value)) return value
  const [first] = Value.Errors(schema, value)
  throw unprocessable(first ? `${first.path || 'body'} ${first.message}` : 'the body is not valid')
}

interface Image {
  field: 'avatar' | 'header'
  bytes: Buffer
}

/**
 * A multipart update_credentials: its text parts, and the two images it may carry, each read whole (at
 * most MAX_UPLOAD_BYTES, as an upload), before anything is stored.
 */
async function partsOf(request: FastifyRequest) {
  const fields: Record<string, string> = {}
  const images: Image[] = []
  const parts = request.parts({
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: MAX_TEXT_PARTS, parts: MAX_TEXT_PARTS + 2 },
  })
  try {
    for await (const part of parts as AsyncIterable<Multipart>) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string') throw unprocessable(`${part.fieldname} is not text`)
        fields[part.fieldname] = part.value
        continue
      }
      if (part.fieldname !== 'avatar' && part.fieldname !== 'header')
        throw unprocessable(`${part.fieldname} is no image field`)
      const bytes = await part.toBuffer()
      if (part.file.truncated) throw uploadError({ code: 'FST_REQ_FILE_TOO_LARGE' })
      images.push({ field: part.fieldname, bytes })
    }
  } catch (error) {
    throw uploadError(error)
  }
  return { fields, images }
}

/**
 * The signed-in person's profile (update_credentials) and signing up (POST /api/v1/accounts), through the
 * same services as Chirp's own profile edit, uploads and signup, with every rule and limit of theirs.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  /** Stores an image as an upload does: its URL. */
  async function store(image: Image) {
    const saved = await services.media.save({
      stream: (async function* () {
        yield image.bytes
      })(),
      truncated: () => false,
      finish: async () => {},
    })
    return saved.url
  }

  app.patch(
    '/api/v1/accounts/update_credentials',
    {
      config: { scope: 'write:accounts' },
      schema: {
        tags: ['mastodon'],
        description:
          "Changes the person's profile: `display_name`, `note`, `locked`, `source[privacy]` (their default audience), a field named Website (Chirp's one profile field), and `avatar` and `header` as images of a multipart body, stored as uploads are. Other fields are ignored.",
        consumes: ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'],
        response: { 200: CredentialAccountSchema, ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const { fields, images } = request.isMultipart()
        ? await partsOf(request)
        : { fields: (request.body ?? {}) as Record<string, string>, images: [] }
      const edit = editOf(checked(CredentialsSchema, fields), fields)
      // Counted against the person's uploads, as Chirp's own uploads are, before any is stored.
      await app.spendUploads(request, reply, images.length)
      for (const image of images) {
        const url = await store(image)
        if (image.field === 'avatar') edit.avatarURL = url
        else edit.bannerURL = url
      }
      if (Object.keys(edit).length > 0) await services.users.edit(userId, edit)
      return ownAccountOf(services, publicUrl, userId)
    },
  )

  /** The app's own token with `write:accounts`, checked before the body is read. */
  const appTokenFor = (request: FastifyRequest) => {
    const token = app.appTokenOf(request)
    if (!token) throw new AppError(401, 'The access token is invalid')
    if (!covers(token.scopes, 'write:accounts')) throw new AppError(403, 'This action is outside the authorized scopes')
    return token
  }

  app.post(
    '/api/v1/accounts',
    {
      onRequest: async (request) => {
        appTokenFor(request)
      },
      schema: {
        tags: ['mastodon'],
        description:
          "Signs someone up with the app's own token (client_credentials, `write:accounts`), as Chirp's signup does, REGISTRATION included; answers their token for the app. With REGISTRATION=approval the account waits for a moderator and no token is given (403).",
        body: SignupSchema,
        response: { 200: TokenSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const token = appTokenFor(request)
      const body = request.body
      if (!on(body.agreement)) throw unprocessable('Agreement must be accepted')
      const { createdUser, pending } = await services.auth.signup({
        username: body.username,
        email: body.email,
        password: body.password,
        ...(body.invite_code === undefined ? {} : { invite: body.invite_code }),
      })
      if (pending) throw forbidden(MSG.accountPending)
      const grant = await services.clientApps.signupGrant(token.app, token.scopes, createdUser._id)
      return {
        access_token: grant.accessToken,
        token_type: 'Bearer' as const,
        scope: grant.scope,
        created_at: grant.createdAt,
      }
    },
  )
}

export default routes
