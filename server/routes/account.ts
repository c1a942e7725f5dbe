import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  AccountDeleteSchema,
  AppIdParamsSchema,
  AuthorisedAppsReplySchema,
  ArchiveSchema,
  ImportReplySchema,
  PasswordChangeSchema,
  PasswordResetConfirmSchema,
  PasswordResetSchema,
  TokenReplySchema,
  TwoFactorDisableSchema,
  TwoFactorEnableSchema,
  TwoFactorEnableReplySchema,
  TwoFactorSetupReplySchema,
  TwoFactorStatusSchema,
  NotificationSettingsSchema,
  NotificationSettingsEditSchema,
  UnsubscribeQuerySchema,
} from '../schemas/account.js'
import { EmptyObjectSchema } from '../schemas/common.js'
import { installFormBodies } from '../mastodon/form-bodies.js'
import { receiveImport } from './import-upload.js'
import { ERRORS, emptyBody, me, type RouteOptions } from './shared.js'

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The unsubscribe link's page: what it stops, and the one button that does it (a form, so it works without script). */
function unsubscribePage(what: string, action: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unsubscribe - Chirp</title></head>
<body><main><h1>Stop mail about ${escape(what)}?</h1>
<p>Chirp will no longer mail you about ${escape(what)}. You can turn it on again in Settings.</p>
<form method="post" action="${escape(action)}"><button type="submit">Unsubscribe</button></form>
</main></body></html>`
}

/** The account's own calls (docs/api-contract.md §4): password, password reset and two-factor sign-in. */
const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { account, accountDeletion, accountExport, accountImport, clientApps, twoFactor, mail } = services
  const signedIn = { onRequest: [app.authenticate] }

  app.post(
    '/account/password',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          'Changes the password and answers a new token: every other token of the caller stops working and every open event stream closes, on every instance.',
        body: PasswordChangeSchema,
        response: { 200: TokenReplySchema, ...ERRORS },
      },
    },
    async (request) => {
      const { currentPassword, newPassword } = request.body
      const result = await account.changePassword(me(request), currentPassword, newPassword)
      await app.events.endUser(me(request))
      return result
    },
  )

  app.delete(
    '/account',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          'Deletes the account and everything it made, given the password. Its username stays held for 30 days; its tokens stop working and its streams close, on every instance.',
        body: AccountDeleteSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      await accountDeletion.deleteAccount(me(request), request.body.password)
      await app.events.endUser(me(request))
      return {}
    },
  )

  app.get(
    '/account/apps',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          'The apps (Mastodon clients) holding a token of the caller now, the most recently authorised first, each with the scopes it was given.',
        response: { 200: AuthorisedAppsReplySchema, ...ERRORS },
      },
    },
    async (request) => ({ apps: await clientApps.authorised(me(request)) }),
  )

  app.delete(
    '/account/apps/:id',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          'Revokes an app: every token it holds for the caller stops working and its streams close, on every instance. 404 when it holds none.',
        params: AppIdParamsSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      const userId = me(request)
      for (const tokenId of await clientApps.revoke(userId, request.params.id)) {
        await app.events.endToken({ userId, tokenId })
      }
      return {}
    },
  )

  app.get(
    '/account/export',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          'A zip of everything the account made (account.json, posts.json, comments.json, bookmarks.json, likes.json, following.csv, followers.csv, blocks.csv, mutes.csv and media/), streamed. Once an hour.',
        produces: ['application/zip'],
        response: { 200: ArchiveSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { username, stream } = await accountExport.archiveOf(me(request))
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="chirp-${username}.zip"`)
        .header('cache-control', 'no-store')
        .send(stream)
    },
  )

  app.post(
    '/account/import',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          "Imports, as multipart field `file`, a Chirp archive (.zip, as the export makes) or one of Mastodon's lists (following_accounts.csv, blocked_accounts.csv, muted_accounts.csv): follows, blocks, mutes and bookmarks of people and posts here, and the archive's own posts with their images and original dates. All or nothing; at most 100 MB uploaded, 10,000 entries, 1 GB inflated, 25 MB an entry, a billion pixels of images. The images its posts use count against the upload limit; 5 imports an hour.",
        consumes: ['multipart/form-data'],
        response: { 200: ImportReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const upload = await receiveImport(request, accountImport.uploadBytes)
      try {
        return await accountImport.importFile(me(request), upload.fileName, upload.file, (count) =>
          app.spendUploads(request, reply, count),
        )
      } finally {
        await upload.dispose()
      }
    },
  )

  app.post(
    '/auth/password-reset',
    {
      schema: {
        tags: ['auth'],
        description:
          'Mails a link to set a new password, valid once and for an hour, to the accounts of the address. Answers 200 {} whether or not the address is known.',
        body: PasswordResetSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      await account.requestReset(request.body.email)
      return {}
    },
  )

  app.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        description: "Sets the password of a reset link's account; every token issued before it stops working.",
        body: PasswordResetConfirmSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      const userId = await account.confirmReset(request.body.token, request.body.newPassword)
      await app.events.endUser(userId)
      return {}
    },
  )

  const notificationSettings = async (userId: string) => {
    const [email, push] = await Promise.all([mail.mailSettings(userId), mail.pushSettings(userId)])
    return { email, push }
  }

  app.get(
    '/account/notifications',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description: 'Which kinds of notification the caller is mailed about, and pushed about on their devices.',
        response: { 200: NotificationSettingsSchema, ...ERRORS },
      },
    },
    async (request) => notificationSettings(me(request)),
  )

  app.put(
    '/account/notifications',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          'Turns kinds of notification mail and push on or off; those left out stay as they are. Mail is off until turned on.',
        body: NotificationSettingsEditSchema,
        response: { 200: NotificationSettingsSchema, ...ERRORS },
      },
    },
    async (request) => {
      const userId = me(request)
      if (request.body.email) await mail.setMailSettings(userId, request.body.email)
      if (request.body.push) await mail.setPushSettings(userId, request.body.push)
      return notificationSettings(userId)
    },
  )

  // Mail programs send the one click as a form (RFC 8058), and so does the link's page.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>()
    installFormBodies(scope)
    scope.post(
      '/account/notifications/unsubscribe',
      {
        schema: {
          tags: ['account'],
          description:
            "One click (RFC 8058): turns off the kind of mail the link's token names. The mail's List-Unsubscribe-Post makes mail programs send this.",
          querystring: UnsubscribeQuerySchema,
          response: { 200: EmptyObjectSchema, ...ERRORS },
        },
      },
      async (request) => {
        await mail.unsubscribe(request.query.token)
        return {}
      },
    )
  })

  app.get(
    '/account/notifications/unsubscribe',
    {
      schema: {
        tags: ['account'],
        description:
          "The page a mail's unsubscribe link opens: a button that turns that kind of mail off (a link only looked at changes nothing).",
        querystring: UnsubscribeQuerySchema,
      },
    },
    async (request, reply) => {
      const kind = mail.kindOfToken(request.query.token)
      const what = kind === 'direct' ? 'direct messages' : `${kind}s`
      const action = `/api/account/notifications/unsubscribe?token=${encodeURIComponent(request.query.token)}`
      return reply.type('text/html; charset=utf-8').send(unsubscribePage(what, action))
    },
  )

  app.get(
    '/account/2fa',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description: 'Whether two-factor sign-in is on for the caller.',
        response: { 200: TwoFactorStatusSchema, ...ERRORS },
      },
    },
    async (request) => twoFactor.status(me(request)),
  )

  app.post(
    '/account/2fa/setup',
    {
      ...signedIn,
      preValidation: emptyBody,
      schema: {
        tags: ['account'],
        description:
          'A new TOTP secret, shown this once, and its otpauth:// URI; sign-in asks for codes only once enabled.',
        body: EmptyObjectSchema,
        response: { 200: TwoFactorSetupReplySchema, ...ERRORS },
      },
    },
    async (request) => twoFactor.setup(me(request)),
  )

  app.post(
    '/account/2fa/enable',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description:
          'Turns two-factor sign-in on, given the password and a code of the set-up secret; answers 10 single-use recovery codes, shown this once.',
        body: TwoFactorEnableSchema,
        response: { 200: TwoFactorEnableReplySchema, ...ERRORS },
      },
    },
    async (request) => twoFactor.enable(me(request), request.body.password, request.body.code),
  )

  app.post(
    '/account/2fa/disable',
    {
      ...signedIn,
      schema: {
        tags: ['account'],
        description: 'Turns two-factor sign-in off, given the password and a code (or a recovery code).',
        body: TwoFactorDisableSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      await twoFactor.disable(me(request), request.body.password, request.body.code)
      return {}
    },
  )
}

export default routes
