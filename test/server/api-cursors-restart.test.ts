import type { TSchema } from '@sinclair/typebox'
import t, { type Test } from 'tap'
import { NotificationsReplySchema } from '../../server/schemas/notifications.js'
import {
  BookmarksReplySchema,
  CommentsReplySchema,
  FeedReplySchema,
  PostsReplySchema,
} from '../../server/schemas/posts.js'
import { BlocksReplySchema, MutesReplySchema } from '../../server/schemas/relations.js'
import { buildApiApp, expectOk, signup } from '../helpers/api.js'

/**
 * A cursor handed out before a restart goes on where it left off after it, on both stores: the rest of
 * the list as it was, without the entry taken back meanwhile and without the one made after the
 * restart (newer than the cursor), nothing shown twice and nothing skipped. The embedded store kept
 * the places of bookmarks, likes, blocks and mutes in memory only, so after a restart such a cursor
 * pointed elsewhere in the list; PostgreSQL's keep their place in the rows.
 */
const PAGE = 3

type Api = Awaited<ReturnType<typeof buildApiApp>>
async function write(api: Api, token: string, url: string, payload?: object) {
  const res = await api.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) })
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return res.json() as { post?: { _id: string }; comments?: { _id: string }[] }
}
const newPost = async (api: Api, token: string, content: string) =>
  (await write(api, token, '/api/posts', { content })).post?._id as string
const newUser = async (api: Api) => (await signup(api)).user._id

interface List {
  name: string
  url: string
  token: string
  schema: TSchema
  ids: (body: never) => string[]
  /** Takes an entry back before the restart; the list must then go on without it. */
  remove?: (api: Api, id: string) => Promise<unknown>
  /** Makes a newer entry after the restart, which a page after the cursor must not show. */
  add?: (api: Api) => Promise<unknown>
}

const ofPosts = (body: { posts: { _id: string }[] }) => body.posts.map((post) => post._id)
const ofUsers = (body: { users: { _id: string }[] }) => body.users.map((user) => user._id)

/** A page of `list`: its ids and the cursor of the next. */
async function pageOf(t: Test, api: Api, list: List, query: string) {
  const res = await api.as(list.token, { method: 'GET', url: `${list.url}?${query}` })
  const body = expectOk(t, res, 200, list.schema, list.name) as { nextCursor: string | null }
  return { ids: list.ids(body as never), nextCursor: body.nextCursor }
}

await t.test('after a restart every cursor goes on where it left off, on every list', async (t) => {
  const first = await buildApiApp(t)
  const author = await signup(first)
  const other = await signup(first)
  const reader = await signup(first)

  // Seven entries in each list: posts of the author's (home feed, profile), comments on one (and the
  // author's notifications of them), and the reader's bookmarks, likes, blocks and mutes.
  await write(first, reader.token, `/api/users/follow/${author.user._id}`)
  for (let i = 0; i < 7; i++) await newPost(first, author.token, `by the author ${i}`)
  const discussed = await newPost(first, author.token, 'the post commented on')
  for (let i = 0; i < 7; i++)
    await write(first, reader.token, `/api/comments/add/${discussed}`, { text: `comment ${i}` })
  for (let i = 0; i < 7; i++) {
    await write(first, reader.token, `/api/users/bookmark/${await newPost(first, other.token, `kept ${i}`)}`)
    await write(first, reader.token, `/api/posts/like/${await newPost(first, other.token, `liked ${i}`)}`)
    await write(first, reader.token, `/api/users/block/${await newUser(first)}`)
    await write(first, reader.token, `/api/users/mute/${await newUser(first)}`, {})
  }

  const LISTS: List[] = [
    {
      name: 'bookmarks',
      url: '/api/users/bookmark',
      token: reader.token,
      schema: BookmarksReplySchema,
      ids: (body: { bookmarks: { _id: string }[] }) => body.bookmarks.map((post) => post._id),
      remove: (api, id) => write(api, reader.token, `/api/users/remove-bookmark/${id}`),
      add: async (api) =>
        write(api, reader.token, `/api/users/bookmark/${await newPost(api, other.token, 'kept later')}`),
    },
    {
      name: 'liked posts',
      url: `/api/users/${reader.username}/likes`,
      token: reader.token,
      schema: FeedReplySchema,
      ids: ofPosts,
      remove: (api, id) => write(api, reader.token, `/api/posts/dislike/${id}`),
      add: async (api) => write(api, reader.token, `/api/posts/like/${await newPost(api, other.token, 'liked later')}`),
    },
    {
      name: 'blocks',
      url: '/api/users/blocks',
      token: reader.token,
      schema: BlocksReplySchema,
      ids: ofUsers,
      remove: (api, id) => write(api, reader.token, `/api/users/unblock/${id}`),
      add: async (api) => write(api, reader.token, `/api/users/block/${await newUser(api)}`),
    },
    {
      name: 'mutes',
      url: '/api/users/mutes',
      token: reader.token,
      schema: MutesReplySchema,
      ids: ofUsers,
      remove: (api, id) => write(api, reader.token, `/api/users/unmute/${id}`),
      add: async (api) => write(api, reader.token, `/api/users/mute/${await newUser(api)}`, {}),
    },
    { name: 'the home feed', url: '/api/feed', token: reader.token, schema: FeedReplySchema, ids: ofPosts },
    {
      name: 'a profile',
      url: `/api/posts/user/${author.username}`,
      token: reader.token,
      schema: PostsReplySchema,
      ids: ofPosts,
    },
    {
      name: 'notifications',
      url: '/api/notifications',
      token: author.token,
      schema: NotificationsReplySchema,
      ids: (body: { notifications: { _id: string }[] }) => body.notifications.map((n) => n._id),
    },
    {
      name: 'comments',
      url: `/api/comments/${discussed}`,
      token: reader.token,
      schema: CommentsReplySchema,
      ids: (body: { comments: { _id: string }[] }) => body.comments.map((comment) => comment._id),
    },
  ]

  // Before the restart: each list whole, its first page and that page's cursor; then an entry not yet
  // shown is taken back from each list that can lose one.
  const before = new Map<List, { whole: string[]; shown: string[]; cursor: string; removed?: string }>()
  for (const list of LISTS) {
    const whole = (await pageOf(t, first, list, 'limit=100')).ids
    const { ids: shown, nextCursor } = await pageOf(t, first, list, `limit=${PAGE}`)
    t.ok(whole.length > PAGE + 2 && nextCursor !== null, `${list.name}: more than a page`)
    t.strictSame(shown, whole.slice(0, PAGE), `${list.name}: the first page starts the list`)
    before.set(list, { whole, shown, cursor: nextCursor as string })
  }
  for (const list of LISTS) {
    const state = before.get(list)
    if (!list.remove || !state) continue
    state.removed = state.whole[PAGE + 2]
    await list.remove(first, state.removed as string)
  }
  await first.app.close()

  const second = await buildApiApp(t, { dataDir: first.dataDir })
  // Newer entries after the restart, then a list of others read before each goes on (places given anew
  // must not reach the old cursors).
  for (const list of LISTS) await list.add?.(second)
  await newPost(second, author.token, 'posted after the restart')

  for (const list of [...LISTS].reverse()) {
    const state = before.get(list)
    if (!state) continue
    const rest: string[] = []
    let cursor: string | null = state.cursor
    for (let pages = 0; cursor !== null && pages < 10; pages++) {
      const page = await pageOf(t, second, list, `limit=${PAGE}&cursor=${cursor}`)
      rest.push(...page.ids)
      cursor = page.nextCursor
    }
    const expected = state.whole.slice(PAGE).filter((id) => id !== state.removed)
    t.strictSame(rest, expected, `${list.name}: the rest of the list, nothing repeated or skipped`)
  }
})
