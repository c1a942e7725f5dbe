import t, { type Test } from 'tap'
import type { TSchema } from '@sinclair/typebox'
import { BookmarksReplySchema, FeedReplySchema } from '../../server/schemas/posts.js'
import { BlocksReplySchema, MutesReplySchema } from '../../server/schemas/relations.js'
import { buildApiApp, expectOk, signup } from '../helpers/api.js'

/**
 * A list read page by page while it changes: each page starts after the last entry of the one before, by
 * the place that entry holds in the list, never by a count of entries. An entry made meanwhile belongs
 * before the first page and shows on none of the later ones; one taken back is gone and moves nothing
 * else. Counting by offset, the embedded store showed a post twice after a bookmark was added and
 * skipped one after an unlike, where PostgreSQL showed each once.
 */
const api = await buildApiApp(t)
const author = await signup(api)
const reader = await signup(api)

const write = async (url: string, token = reader.token, payload?: object) => {
  const res = await api.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) })
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return res.json() as { post: { _id: string } }
}
const newPost = async (content: string) => (await write('/api/posts', author.token, { content })).post._id
const newUser = async () => (await signup(api)).user._id

interface List {
  url: string
  schema: TSchema
  ids: (body: never) => string[]
}

/** Every page of `list`, two at a time, with `between` run after the first. */
async function readAcross(t: Test, { url, schema, ids }: List, between: () => Promise<unknown>) {
  const seen: string[][] = []
  let cursor: string | null = null
  do {
    const query: string = `?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`
    const body = expectOk(t, await api.as(reader.token, { method: 'GET', url: url + query }), 200, schema) as {
      nextCursor: string | null
    }
    seen.push(ids(body as never))
    cursor = body.nextCursor
    if (seen.length === 1) await between()
  } while (cursor !== null)
  return seen
}

const bookmarks: List = {
  url: '/api/users/bookmark',
  schema: BookmarksReplySchema,
  ids: (body: { bookmarks: { _id: string }[] }) => body.bookmarks.map((post) => post._id),
}
const liked: List = {
  url: `/api/users/${reader.username}/likes`,
  schema: FeedReplySchema,
  ids: (body: { posts: { _id: string }[] }) => body.posts.map((post) => post._id),
}
const people = (url: string, schema: TSchema): List => ({
  url,
  schema,
  ids: (body: { users: { _id: string }[] }) => body.users.map((user) => user._id),
})

await t.test('bookmarks paged while a bookmark is added show each post once', async (t) => {
  const posts: string[] = []
  for (let i = 0; i < 5; i++) posts.push(await newPost(`to keep ${i}`))
  for (const id of posts) await write(`/api/users/bookmark/${id}`)
  const pages = await readAcross(t, bookmarks, async () => write(`/api/users/bookmark/${await newPost('meanwhile')}`))
  t.strictSame(pages.flat(), [...posts].reverse(), 'newest first, each once, the new one on none')
})

await t.test('liked posts paged across an unlike skip none', async (t) => {
  const posts: string[] = []
  for (let i = 0; i < 5; i++) posts.push(await newPost(`to like ${i}`))
  for (const id of posts) await write(`/api/posts/like/${id}`)
  const pages = await readAcross(t, liked, () => write(`/api/posts/dislike/${posts[4]}`))
  t.strictSame(pages.flat(), [...posts].reverse(), 'newest first, each once')
})

await t.test('blocks and mutes paged across an unblock and a mute skip none and repeat none', async (t) => {
  const blocked: string[] = []
  const muted: string[] = []
  for (let i = 0; i < 5; i++) {
    blocked.push(await newUser())
    muted.push(await newUser())
  }
  for (const id of blocked) await write(`/api/users/block/${id}`)
  for (const id of muted) await write(`/api/users/mute/${id}`, reader.token, {})
  const blocks = await readAcross(t, people('/api/users/blocks', BlocksReplySchema), () =>
    write(`/api/users/unblock/${blocked[4]}`),
  )
  t.strictSame(blocks.flat(), [...blocked].reverse())
  const mutes = await readAcross(t, people('/api/users/mutes', MutesReplySchema), async () =>
    write(`/api/users/mute/${await newUser()}`, reader.token, {}),
  )
  t.strictSame(mutes.flat(), [...muted].reverse())
})

await t.test('a page followed only by entries hidden from the reader is the last one', async (t) => {
  const hidden = await signup(api)
  const theirs = (await write('/api/posts', hidden.token, { content: 'by someone muted' })).post._id
  const mine = await signup(api)
  const shown = (await write('/api/posts', author.token, { content: 'by someone shown' })).post._id
  await write(`/api/users/bookmark/${theirs}`, mine.token)
  await write(`/api/users/bookmark/${shown}`, mine.token)
  await write(`/api/users/mute/${hidden.user._id}`, mine.token, {})
  const res = await api.as(mine.token, { method: 'GET', url: '/api/users/bookmark?limit=1' })
  const body = expectOk(t, res, 200, BookmarksReplySchema)
  t.strictSame(
    body.bookmarks.map((post) => post._id),
    [shown],
  )
  t.equal(body.nextCursor, null, 'no cursor to a page with nothing on it')
})
