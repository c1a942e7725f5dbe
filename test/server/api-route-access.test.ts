import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { HTTPMethods } from 'fastify'
import t, { type Test } from 'tap'
import * as MSG from '../../common/messages.js'
import { buildApiApp, expectError } from '../helpers/api.js'
import { tempDataDir } from '../helpers/app.js'
import { seedWithStaff } from '../helpers/moderation.js'
import { snapshotDb } from '../helpers/seeded.js'

/**
 * Who may call each route the app registers (DECISIONS §8, §11). The table below names every one of them,
 * so a route added without deciding who may call it fails here. Then every route that needs a sign-in is
 * called signed out (401), every staff route as a plain user (403) and every admin route as a moderator
 * (403), so a route that forgets its check fails too; and the staff each class admits are let through.
 * The Mastodon client API's routes that need a token (`mastodon-token`) refuse a signed-out call in
 * Mastodon's shape (DECISIONS §13).
 */
type Access = 'anyone' | 'signed-in' | 'moderator' | 'admin' | 'mastodon-token'

/** `METHOD url` as registered; a HEAD route made for a GET is classified with its GET. */
const ACCESS: Readonly<Record<string, Access>> = {
  'GET /api/docs': 'anyone',
  'GET /api/docs/static/index.html': 'anyone',
  'GET /api/docs/static/swagger-initializer.js': 'anyone',
  'GET /api/docs/json': 'anyone',
  'GET /api/docs/yaml': 'anyone',
  'GET /api/docs/static/*': 'anyone',
  'GET /api/health': 'anyone',
  'POST /api/auth/signup': 'anyone',
  'POST /api/auth/login': 'anyone',
  'POST /api/auth/logout': 'signed-in',
  'GET /api/follow-requests': 'signed-in',
  'HEAD /api/follow-requests': 'signed-in',
  'POST /api/follow-requests/:id/authorize': 'signed-in',
  'POST /api/follow-requests/:id/reject': 'signed-in',
  'GET /api/conversations': 'signed-in',
  'HEAD /api/conversations': 'signed-in',
  'GET /api/conversations/unread': 'signed-in',
  'HEAD /api/conversations/unread': 'signed-in',
  'GET /api/conversations/:id': 'signed-in',
  'HEAD /api/conversations/:id': 'signed-in',
  'POST /api/conversations/:id/read': 'signed-in',
  'DELETE /api/conversations/:id': 'signed-in',
  'POST /api/auth/logout-all': 'signed-in',
  'POST /api/auth/password-reset': 'anyone',
  'POST /api/auth/password-reset/confirm': 'anyone',
  'POST /api/users/block/:id': 'signed-in',
  'POST /api/users/unblock/:id': 'signed-in',
  'POST /api/users/mute/:id': 'signed-in',
  'POST /api/users/unmute/:id': 'signed-in',
  'GET /api/users/blocks': 'signed-in',
  'GET /api/users/mutes': 'signed-in',
  'POST /api/account/password': 'signed-in',
  'DELETE /api/account': 'signed-in',
  'GET /api/account/apps': 'signed-in',
  'DELETE /api/account/apps/:id': 'signed-in',
  'GET /api/account/export': 'signed-in',
  'POST /api/account/import': 'signed-in',
  'GET /api/account/notifications': 'signed-in',
  'PUT /api/account/notifications': 'signed-in',
  'POST /api/account/notifications/unsubscribe': 'anyone',
  'GET /api/account/notifications/unsubscribe': 'anyone',
  'GET /api/account/2fa': 'signed-in',
  'POST /api/account/2fa/setup': 'signed-in',
  'POST /api/account/2fa/enable': 'signed-in',
  'POST /api/account/2fa/disable': 'signed-in',
  'GET /api/users': 'anyone',
  'GET /api/users/suggestions': 'signed-in',
  'GET /api/users/bookmark': 'signed-in',
  'GET /api/users/:username': 'anyone',
  'GET /api/users/:username/likes': 'anyone',
  'POST /api/users/edit': 'signed-in',
  'POST /api/users/follow/:id': 'signed-in',
  'POST /api/users/unfollow/:id': 'signed-in',
  'POST /api/users/bookmark/:id': 'signed-in',
  'POST /api/users/remove-bookmark/:id': 'signed-in',
  'GET /api/posts': 'anyone',
  'GET /api/posts/:postId': 'anyone',
  'GET /api/posts/:postId/likes': 'anyone',
  'GET /api/posts/:postId/history': 'anyone',
  'GET /api/posts/user/:username': 'anyone',
  'GET /api/posts/tag/:tag': 'anyone',
  'POST /api/posts': 'signed-in',
  'POST /api/posts/edit/:id': 'signed-in',
  'DELETE /api/posts/:id': 'signed-in',
  'POST /api/posts/like/:id': 'signed-in',
  'POST /api/posts/dislike/:id': 'signed-in',
  'POST /api/posts/repost/:id': 'signed-in',
  'POST /api/posts/unrepost/:id': 'signed-in',
  'POST /api/posts/pin/:id': 'signed-in',
  'POST /api/posts/unpin/:id': 'signed-in',
  'GET /api/feed': 'signed-in',
  'GET /api/comments/:postId': 'anyone',
  'POST /api/comments/add/:postId': 'signed-in',
  'POST /api/comments/edit/:postId/:commentId': 'signed-in',
  'POST /api/comments/delete/:postId/:commentId': 'signed-in',
  'DELETE /api/comments/delete/:postId/:commentId': 'signed-in',
  'POST /api/comments/upvote/:postId/:commentId': 'signed-in',
  'POST /api/comments/downvote/:postId/:commentId': 'signed-in',
  'POST /api/polls/:postId/vote': 'signed-in',
  'POST /api/media': 'signed-in',
  'GET /api/notifications': 'signed-in',
  'POST /api/notifications/read': 'signed-in',
  'GET /api/tags/trending': 'anyone',
  'GET /api/search': 'anyone',
  'POST /api/reports': 'signed-in',
  'GET /api/admin/reports': 'moderator',
  'POST /api/admin/reports/:id/resolve': 'moderator',
  'GET /api/admin/users': 'moderator',
  'GET /api/admin/users/:id': 'moderator',
  'POST /api/admin/users/:id/role': 'admin',
  'POST /api/admin/users/:id/suspend': 'moderator',
  'POST /api/admin/users/:id/unsuspend': 'moderator',
  'POST /api/admin/users/:id/approve': 'moderator',
  'POST /api/admin/users/:id/reject': 'moderator',
  'DELETE /api/admin/posts/:id': 'moderator',
  'DELETE /api/admin/comments/:postId/:commentId': 'moderator',
  'GET /api/admin/log': 'moderator',
  'GET /api/admin/jobs': 'admin',
  'POST /api/admin/emojis': 'admin',
  'DELETE /api/admin/emojis/:shortcode': 'admin',
  'POST /api/invites': 'moderator',
  'GET /api/invites': 'moderator',
  // The stream takes a ticket, made by the signed-in ticket route, in place of a token (events-tickets).
  'POST /api/events/ticket': 'signed-in',
  'GET /api/events': 'anyone',
  // The Mastodon client API: OAuth, then what an app reads as it starts; preflights answer anyone.
  'POST /api/v1/apps': 'anyone',
  'GET /api/v1/apps/verify_credentials': 'mastodon-token',
  'POST /oauth/token': 'anyone',
  'POST /oauth/revoke': 'anyone',
  'GET /oauth/authorize': 'anyone',
  'POST /oauth/authorize': 'anyone',
  'GET /.well-known/oauth-authorization-server': 'anyone',
  'GET /api/v1/instance': 'anyone',
  'GET /api/v2/instance': 'anyone',
  'GET /api/v1/custom_emojis': 'anyone',
  'GET /api/v1/accounts/verify_credentials': 'mastodon-token',
  'GET /api/v1/preferences': 'mastodon-token',
  'GET /api/v1/markers': 'mastodon-token',
  'POST /api/v1/markers': 'mastodon-token',
  'POST /api/v1/push/subscription': 'mastodon-token',
  'GET /api/v1/push/subscription': 'mastodon-token',
  'PUT /api/v1/push/subscription': 'mastodon-token',
  'DELETE /api/v1/push/subscription': 'mastodon-token',
  'GET /api/v1/accounts/lookup': 'anyone',
  'GET /api/v1/accounts/relationships': 'mastodon-token',
  'GET /api/v1/accounts/:id': 'anyone',
  'GET /api/v1/accounts/:id/statuses': 'anyone',
  'GET /api/v1/accounts/:id/followers': 'anyone',
  'GET /api/v1/accounts/:id/following': 'anyone',
  'POST /api/v1/accounts/:id/follow': 'mastodon-token',
  'POST /api/v1/accounts/:id/unfollow': 'mastodon-token',
  'POST /api/v1/accounts/:id/block': 'mastodon-token',
  'POST /api/v1/accounts/:id/unblock': 'mastodon-token',
  'POST /api/v1/accounts/:id/mute': 'mastodon-token',
  'POST /api/v1/accounts/:id/unmute': 'mastodon-token',
  'GET /api/v1/bookmarks': 'mastodon-token',
  'GET /api/v1/notifications': 'mastodon-token',
  'GET /api/v1/notifications/unread_count': 'mastodon-token',
  'GET /api/v1/notifications/:id': 'mastodon-token',
  'POST /api/v1/notifications/:id/dismiss': 'mastodon-token',
  'GET /api/v2/search': 'anyone',
  'GET /api/v1/favourites': 'mastodon-token',
  'GET /api/v1/statuses/:id/favourited_by': 'anyone',
  'GET /api/v1/statuses/:id/reblogged_by': 'anyone',
  'GET /api/v1/statuses/:id/context': 'anyone',
  'POST /api/v1/media': 'mastodon-token',
  'POST /api/v2/media': 'mastodon-token',
  'GET /api/v1/media/:id': 'mastodon-token',
  'PUT /api/v1/media/:id': 'mastodon-token',
  'GET /api/v1/polls/:id': 'anyone',
  'POST /api/v1/polls/:id/votes': 'mastodon-token',
  'GET /api/v1/timelines/home': 'mastodon-token',
  'GET /api/v1/timelines/public': 'anyone',
  'GET /api/v1/timelines/tag/:hashtag': 'anyone',
  'GET /api/v1/statuses/:id': 'anyone',
  'POST /api/v1/statuses': 'mastodon-token',
  'DELETE /api/v1/statuses/:id': 'mastodon-token',
  'PUT /api/v1/statuses/:id': 'mastodon-token',
  'GET /api/v1/statuses/:id/history': 'anyone',
  'GET /api/v1/statuses/:id/source': 'mastodon-token',
  'GET /api/v1/scheduled_statuses': 'mastodon-token',
  'GET /api/v1/scheduled_statuses/:id': 'mastodon-token',
  'PUT /api/v1/scheduled_statuses/:id': 'mastodon-token',
  'DELETE /api/v1/scheduled_statuses/:id': 'mastodon-token',
  'POST /api/v1/statuses/:id/favourite': 'mastodon-token',
  'POST /api/v1/statuses/:id/unfavourite': 'mastodon-token',
  'POST /api/v1/statuses/:id/reblog': 'mastodon-token',
  'POST /api/v1/statuses/:id/unreblog': 'mastodon-token',
  'POST /api/v1/statuses/:id/bookmark': 'mastodon-token',
  'POST /api/v1/statuses/:id/unbookmark': 'mastodon-token',
  'POST /api/v1/statuses/:id/pin': 'mastodon-token',
  'POST /api/v1/statuses/:id/unpin': 'mastodon-token',
  'GET /api/v1/streaming/health': 'anyone',
  'GET /api/v1/streaming': 'mastodon-token',
  'GET /api/v1/streaming/user': 'mastodon-token',
  'GET /api/v1/streaming/user/notification': 'mastodon-token',
  'GET /api/v1/streaming/public': 'mastodon-token',
  'GET /api/v1/streaming/public/local': 'mastodon-token',
  'GET /api/v1/streaming/hashtag': 'mastodon-token',
  'GET /api/v1/streaming/hashtag/local': 'mastodon-token',
  'GET /api/v1/streaming/direct': 'mastodon-token',
  'GET /api/v1/streaming/list': 'mastodon-token',
  'GET /api/v1/blocks': 'mastodon-token',
  'GET /api/v1/mutes': 'mastodon-token',
  'GET /api/v1/follow_requests': 'mastodon-token',
  'POST /api/v1/follow_requests/:id/authorize': 'mastodon-token',
  'POST /api/v1/follow_requests/:id/reject': 'mastodon-token',
  'POST /api/v1/reports': 'mastodon-token',
  'GET /api/v1/conversations': 'mastodon-token',
  'POST /api/v1/conversations/:id/read': 'mastodon-token',
  'DELETE /api/v1/conversations/:id': 'mastodon-token',
  'GET /api/v2/filters': 'mastodon-token',
  'POST /api/v2/filters': 'mastodon-token',
  'GET /api/v2/filters/:id': 'mastodon-token',
  'PUT /api/v2/filters/:id': 'mastodon-token',
  'DELETE /api/v2/filters/:id': 'mastodon-token',
  'GET /api/v2/filters/:id/keywords': 'mastodon-token',
  'POST /api/v2/filters/:id/keywords': 'mastodon-token',
  'GET /api/v2/filter_keywords/:id': 'mastodon-token',
  'PUT /api/v2/filter_keywords/:id': 'mastodon-token',
  'DELETE /api/v2/filter_keywords/:id': 'mastodon-token',
  'GET /api/v1/lists': 'mastodon-token',
  'POST /api/v1/lists': 'mastodon-token',
  'GET /api/v1/lists/:id': 'mastodon-token',
  'PUT /api/v1/lists/:id': 'mastodon-token',
  'DELETE /api/v1/lists/:id': 'mastodon-token',
  'GET /api/v1/lists/:id/accounts': 'mastodon-token',
  'POST /api/v1/lists/:id/accounts': 'mastodon-token',
  'DELETE /api/v1/lists/:id/accounts': 'mastodon-token',
  'GET /api/v1/accounts/:id/lists': 'mastodon-token',
  'GET /api/v1/timelines/list/:id': 'mastodon-token',
  'POST /api/v1/notifications/clear': 'mastodon-token',
  'GET /api/v2/notifications': 'mastodon-token',
  'GET /api/v2/notifications/unread_count': 'mastodon-token',
  'GET /api/v1/accounts/search': 'mastodon-token',
  'PATCH /api/v1/accounts/update_credentials': 'mastodon-token',
  'POST /api/v1/accounts': 'mastodon-token',
  'GET /api/v1/trends/tags': 'anyone',
  'GET /api/v1/trends/statuses': 'anyone',
  'GET /api/v2/suggestions': 'mastodon-token',
  'GET /api/v1/suggestions': 'mastodon-token',
  'DELETE /api/v1/suggestions/:id': 'mastodon-token',
  'OPTIONS /api/v1/*': 'anyone',
  'OPTIONS /api/v2/*': 'anyone',
  'OPTIONS /oauth/token': 'anyone',
  'OPTIONS /oauth/revoke': 'anyone',
  // Share pages and the built client, registered when there is one.
  'GET /post-detail/:postId': 'anyone',
  'GET /profile/:username': 'anyone',
  'GET /tag/:tag': 'anyone',
  'GET /': 'anyone',
  'GET /index.html': 'anyone',
}

/**
 * ActivityPub (DECISIONS §14), registered with FEDERATION on, as here: other servers call these without a
 * Chirp sign-in. Inboxes take activities signed by their actors' keys (Fedify's check, federation-inbox).
 */
const FEDERATION: Readonly<Record<string, Access>> = {
  'GET /.well-known/webfinger': 'anyone',
  'GET /.well-known/nodeinfo': 'anyone',
  'GET /.well-known/host-meta': 'anyone',
  'GET /nodeinfo/2.1': 'anyone',
  'GET /ap/users/:id': 'anyone',
  'GET /ap/users/:id/outbox': 'anyone',
  'GET /ap/users/:id/followers': 'anyone',
  'GET /ap/users/:id/following': 'anyone',
  'GET /ap/users/:id/featured': 'anyone',
  'GET /ap/posts/:id': 'anyone',
  'POST /ap/users/:id/inbox': 'anyone',
  'POST /ap/inbox': 'anyone',
}

/** Uploads are served from MEDIA_DIR or, with S3 on, from the bucket: one of the two is registered. */
const MEDIA: Readonly<Record<string, Access>> = { 'GET /media/*': 'anyone', 'GET /media/:key': 'anyone' }

const classified = (key: string): Access | undefined => ACCESS[key] ?? FEDERATION[key] ?? MEDIA[key]
const accessOf = (method: string, url: string): Access | undefined =>
  classified(`${method} ${url}`) ?? (method === 'HEAD' ? classified(`GET ${url}`) : undefined)

interface Route {
  method: HTTPMethods
  url: string
}
const registered: Route[] = []
const clientDir = await tempDataDir(t)
await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>Chirp</title><div id="root"></div>')
const api = await buildApiApp(t, {
  config: { clientDir, federation: true, publicUrl: 'https://chirp.example' },
  options: { seed: seedWithStaff },
  onRoute: ({ method, url }) => {
    for (const one of [method].flat()) registered.push({ method: one, url })
  },
})
const [admin, moderator, user] = await Promise.all([
  api.login('maya.lin'),
  api.login('theo_park'),
  api.login('noah_kim'),
])

/** A URL of the route with its parameters filled: the checks run before the parameters are read. */
const urlOf = (url: string) =>
  url
    .replace(/:(id|postId|commentId)\b/g, '00000000-0000-4000-8000-000000000000')
    .replace(':username', 'noah_kim')
    .replace(':tag', 'chirp')
    .replace(':key', 'none.png')
    .replace('*', 'none')
const routesFor = (...classes: Access[]) =>
  registered.filter(({ method, url }) => classes.includes(accessOf(method, url) ?? 'anyone'))
const call = (token: string | undefined, { method, url }: Route) => api.as(token, { method, url: urlOf(url) })

/** The exact refusal of a call as `token`, or for HEAD (which has no body) its status. */
async function refused(t: Test, token: string | undefined, route: Route, status: number, message: string, who: string) {
  const res = await call(token, route)
  const what = `${route.method} ${route.url} ${who}`
  if (route.method === 'HEAD') t.equal(res.statusCode, status, `${what} answers ${status}`)
  else expectError(t, res, status, message, what)
}

await t.test('every route the app registers is classified, and every entry names a registered route', async (t) => {
  t.ok(registered.length > Object.keys(ACCESS).length, 'the routes were heard as they were registered')
  for (const { method, url } of registered) t.ok(accessOf(method, url), `${method} ${url} is classified`)
  const seen = new Set(registered.map(({ method, url }) => `${method} ${url}`))
  for (const key of [...Object.keys(ACCESS), ...Object.keys(FEDERATION)]) t.ok(seen.has(key), `${key} is registered`)
})

await t.test('a signed-out caller gets 401 from every route that needs a sign-in', async (t) => {
  for (const route of routesFor('signed-in', 'moderator', 'admin')) {
    await refused(t, undefined, route, 401, MSG.invalidToken, 'signed out')
  }
})

await t.test(
  "a signed-out caller gets 401 in Mastodon's shape from every Mastodon route that needs a token",
  async (t) => {
    const routes = routesFor('mastodon-token')
    t.ok(routes.length > 0, 'there are such routes')
    for (const route of routes) {
      const res = await call(undefined, route)
      const what = `${route.method} ${route.url} signed out`
      t.equal(res.statusCode, 401, `${what} answers 401`)
      if (route.method !== 'HEAD')
        t.strictSame(res.json(), { error: 'The access token is invalid' }, `${what}: its error`)
    }
  },
)

await t.test('a user gets 403 from every staff route, a moderator from every admin one; nothing changes', async (t) => {
  const before = await snapshotDb(api)
  for (const route of routesFor('moderator', 'admin')) {
    await refused(t, user, route, 403, MSG.notAllowed, 'as a user')
  }
  for (const route of routesFor('admin')) {
    await refused(t, moderator, route, 403, MSG.notAllowed, 'as a moderator')
  }
  t.strictSame(await snapshotDb(api), before, 'nothing changed')
})

await t.test('the staff a route admits get past its check', async (t) => {
  for (const [token, who, classes] of [
    [moderator, 'a moderator', ['moderator']],
    [admin, 'an admin', ['moderator', 'admin']],
  ] as const) {
    for (const route of routesFor(...classes)) {
      const { statusCode } = await call(token, route)
      t.ok(statusCode !== 401 && statusCode !== 403, `${route.method} ${route.url} as ${who}: ${statusCode}`)
    }
  }
})
