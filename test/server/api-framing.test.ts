import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t, { type Test } from 'tap'
import { MSG } from '../../server/errors.js'
import {
  BookmarksReplySchema,
  PostReplySchema,
  PostWriteReplySchema,
  PostsReplySchema,
} from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, signup } from '../helpers/api.js'

/** Lenient framing (docs/api-contract.md §1): trailing slashes, empty JSON bodies and text/plain JSON. */
const api = await buildApiApp(t)
const { app } = api
const author = await signup(api)
const JSON_TYPE = { 'content-type': 'application/json' }
const TEXT_TYPE = { 'content-type': 'text/plain;charset=UTF-8' }
const postCount = async (t: Test) =>
  expectOk(t, await app.inject({ method: 'GET', url: '/api/posts' }), 200, PostsReplySchema).posts.length

async function newPost(t: Test, content: string) {
  const res = await api.as(author.token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { prefer: 'return=minimal' },
  })
  return expectOk(t, res, 201, PostWriteReplySchema).post?._id as string
}

await t.test('every API path answers with or without a trailing slash', async (t) => {
  const id = await newPost(t, 'slashes')
  expectOk(t, await app.inject({ method: 'GET', url: `/api/posts/${id}/` }), 200, PostReplySchema, 'GET a post/')
  const bookmark = await api.as(author.token, { method: 'POST', url: `/api/users/bookmark/${id}/` })
  t.equal(expectOk(t, bookmark, 200, BookmarksReplySchema, 'POST bookmark/').bookmarks[0]?._id, id)
  const list = await api.as(author.token, { method: 'GET', url: '/api/users/bookmark/' })
  t.equal(expectOk(t, list, 200, BookmarksReplySchema, 'GET /users/bookmark/').bookmarks.length, 1)
  const edit = await api.as(author.token, { method: 'POST', url: '/api/users/edit/', payload: { bio: 'with a slash' } })
  t.equal(edit.statusCode, 201, 'POST /users/edit/')
  t.equal((await app.inject({ method: 'GET', url: '/api/health/' })).statusCode, 200, 'GET /health/')
  const docs = await app.inject({ method: 'GET', url: '/api/docs/json/' })
  t.equal(docs.statusCode, 200, 'the OpenAPI document too')
  expectError(
    t,
    await app.inject({ method: 'GET', url: '/api/no/such/route/' }),
    404,
    'Route not found',
    'an unknown path/',
  )
})

await t.test('the client routes of the built app and its files answer with a trailing slash too', async (t) => {
  const clientDir = path.join(api.dataDir, 'client')
  await mkdir(path.join(clientDir, 'avatars'), { recursive: true })
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>Chirp</title>')
  await writeFile(path.join(clientDir, 'avatars', 'avatar-1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  const withClient = await buildApiApp(t, { config: { clientDir } })
  const html = { accept: 'text/html' }
  for (const url of ['/login/', '/profile/guest/', '/']) {
    const res = await withClient.app.inject({ method: 'GET', url, headers: html })
    t.equal(res.statusCode, 200, `${url} is the app`)
    t.match(res.body, /<title>Chirp<\/title>/)
  }
  t.equal((await withClient.app.inject({ method: 'GET', url: '/avatars/avatar-1.svg/' })).statusCode, 200, 'a file/')
  const api404 = await withClient.app.inject({ method: 'GET', url: '/api/nothing/', headers: html })
  t.equal(api404.statusCode, 404, 'an unknown API path/ is never the app')
  t.strictSame(api404.json(), { errors: ['Route not found'], code: 'route_not_found' })
})

await t.test('an empty body sent as application/json is no body', async (t) => {
  const id = await newPost(t, 'to like, then delete')
  const like = await api.as(author.token, { method: 'POST', url: `/api/posts/like/${id}`, headers: JSON_TYPE })
  t.equal(expectOk(t, like, 201, PostWriteReplySchema, 'like').post?.likes.likeCount, 1)
  const del = await api.as(author.token, { method: 'DELETE', url: `/api/posts/${id}`, headers: JSON_TYPE })
  t.equal(del.statusCode, 201, 'DELETE with the header and no body')
  expectError(
    t,
    await app.inject({ method: 'GET', url: `/api/posts/${id}` }),
    404,
    'Post not found',
    'the post is gone',
  )
  const before = await postCount(t)
  const create = await api.as(author.token, { method: 'POST', url: '/api/posts', headers: JSON_TYPE })
  expectError(t, create, 400, 'body must be object', 'a call that needs a body still needs one')
  t.equal(await postCount(t), before, 'and nothing was stored')
})

await t.test('a text/plain body holding JSON is read as JSON', async (t) => {
  const payload = JSON.stringify({ postData: { content: 'sent by fetch without headers' } })
  const res = await api.as(author.token, { method: 'POST', url: '/api/posts', payload, headers: TEXT_TYPE })
  const { post } = expectOk(t, res, 201, PostWriteReplySchema, 'create')
  t.equal(post?.content, 'sent by fetch without headers')
  const like = await api.as(author.token, {
    method: 'POST',
    url: `/api/posts/like/${post?._id}`,
    payload: '',
    headers: TEXT_TYPE,
  })
  t.equal(like.statusCode, 201, 'an empty text/plain body is no body')
  const typed = await api.as(author.token, {
    method: 'POST',
    url: '/api/posts',
    payload: '{"content":5}',
    headers: TEXT_TYPE,
  })
  expectError(t, typed, 400, 'content must be string', 'its fields are validated as strictly as JSON ones')
})

await t.test('a text/plain body that is not JSON is a 400 and changes nothing', async (t) => {
  const before = await postCount(t)
  for (const payload of ['content=hello', '{"content":', '{"__proto__":{"polluted":true},"content":"x"}']) {
    const res = await api.as(author.token, { method: 'POST', url: '/api/posts', payload, headers: TEXT_TYPE })
    expectError(t, res, 400, MSG.textNotJson, payload)
  }
  t.equal(await postCount(t), before, 'nothing was stored')
  t.equal(({} as { polluted?: unknown }).polluted, undefined, 'no prototype was polluted')
})

await t.test('the body size limit holds for text/plain as for JSON', async (t) => {
  const payload = JSON.stringify({ content: 'x'.repeat(1_100_000) })
  for (const headers of [TEXT_TYPE, JSON_TYPE]) {
    const res = await api.as(author.token, { method: 'POST', url: '/api/posts', payload, headers })
    expectError(t, res, 413, 'Request body is too large', headers['content-type'])
  }
})
