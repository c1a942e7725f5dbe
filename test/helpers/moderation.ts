import type { AppOptions } from '../../server/app.js'
import type { MediaStorage } from '../../server/media/media-storage.js'
import type { Config } from '../../server/config.js'
import type { Database, Role } from '../../server/store/types.js'
import { IMAGE_BYTES, buildApiApp, multipart } from './api.js'
import type { TestContext } from './app.js'
import { cachedSeed } from './store-under-test.js'

/** The seeded community with an admin and a moderator, as `npm run admin -- role` would make them. */
export const STAFF: Readonly<Record<string, Role>> = { 'maya.lin': 'admin', theo_park: 'moderator' }

export async function seedWithStaff(media: MediaStorage): Promise<Database> {
  const seed = await cachedSeed(media)
  return {
    ...seed,
    users: seed.users.map((user) => (STAFF[user.username] ? { ...user, role: STAFF[user.username] } : user)),
  }
}

/** An API app (rate limits off unless `config` says otherwise) whose seed has maya.lin as admin and theo_park as moderator. */
export async function buildModerationApp(t: TestContext, config: Partial<Config> = {}, options: AppOptions = {}) {
  const api = await buildApiApp(t, { config, options: { seed: seedWithStaff, ...options } })
  const [admin, moderator] = await Promise.all([api.login('maya.lin'), api.login('theo_park')])
  return { api, admin, moderator }
}

type Api = Awaited<ReturnType<typeof buildModerationApp>>['api']

/** A call as `token`, with a JSON body when one is given. */
export const call = (
  api: Api,
  token: string | undefined,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) => api.as(token, { method, url, ...(payload ? { payload } : {}) })

/** A new post by `token`'s user: its id. */
export async function postBy(api: Api, token: string, content = 'a post to report'): Promise<string> {
  const res = await api.as(token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { prefer: 'return=minimal' },
  })
  return (res.json() as { post: { _id: string } }).post._id
}

/** A PNG uploaded by `token`'s user: its URL. */
export async function imageBy(api: Api, token: string): Promise<string> {
  const res = await api.as(token, {
    method: 'POST',
    url: '/api/media',
    ...multipart('file', 'a.png', 'image/png', IMAGE_BYTES.png),
  })
  return (res.json() as { url: string }).url
}

/** A new comment by `token`'s user on the post: its id. */
export async function commentBy(
  api: Api,
  token: string,
  postId: string,
  text = 'a comment to report',
): Promise<string> {
  const res = await api.as(token, { method: 'POST', url: `/api/comments/add/${postId}`, payload: { text } })
  const comments = (res.json() as { comments: { _id: string }[] }).comments
  return (comments[comments.length - 1] as { _id: string })._id
}
