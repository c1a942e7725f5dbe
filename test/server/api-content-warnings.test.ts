import t from 'tap'
import { PostUpdatedEventSchema } from '../../server/schemas/events.js'
import { PostReplySchema, type Post } from '../../server/schemas/posts.js'
import { expectOk, signup } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'

/** Content warnings (DECISIONS §10, §11): `spoilerText`, 1 to 100 characters, on create and edit; empty means none. */
const { api, write, stream, expectEvent } = await buildLiveApi(t)

await t.test('a post carries spoilerText from create, and every read shows it', async (t) => {
  const author = await signup(api)
  const res = await write(author, 'POST', '/api/posts', { content: 'the ending', spoilerText: 'film spoilers' })
  const { post } = expectOk(t, res, 201, PostReplySchema)
  t.equal(post.spoilerText, 'film spoilers')
  const read = (await api.as(undefined, { method: 'GET', url: `/api/posts/${post._id}` })).json() as { post: Post }
  t.equal(read.post.spoilerText, 'film spoilers')
  const listed = (
    await api.as(author.token, { method: 'GET', url: `/api/posts/user/${author.username}?compact=1` })
  ).json() as { posts: Post[] }
  t.equal(listed.posts[0]?.spoilerText, 'film spoilers', 'compact lists too')
})

await t.test('empty means none; past 100 characters, or not a string, is a 400', async (t) => {
  const author = await signup(api)
  const none = (await write(author, 'POST', '/api/posts', { content: 'plain', spoilerText: '' })).json() as {
    post: Post
  }
  t.notOk('spoilerText' in none.post, 'no warning')
  t.equal((await write(author, 'POST', '/api/posts', { content: 'x', spoilerText: 'w'.repeat(100) })).statusCode, 201)
  t.equal((await write(author, 'POST', '/api/posts', { content: 'x', spoilerText: 'w'.repeat(101) })).statusCode, 400)
  t.equal((await write(author, 'POST', '/api/posts', { content: 'x', spoilerText: 5 })).statusCode, 400)
})

await t.test('an edit sets, keeps or clears it, and open screens hear it', async (t) => {
  const author = await signup(api)
  const created = (await write(author, 'POST', '/api/posts', { content: 'hm' })).json() as { post: Post }
  const id = created.post._id
  const watching = await stream(t, author)
  const set = (await write(author, 'POST', `/api/posts/edit/${id}`, { spoilerText: 'careful' })).json() as {
    post: Post
  }
  t.equal(set.post.spoilerText, 'careful', 'set')
  t.equal((await expectEvent(t, watching, 'post.updated', PostUpdatedEventSchema)).spoilerText, 'careful', 'told live')
  const kept = (await write(author, 'POST', `/api/posts/edit/${id}`, { content: 'hm, edited' })).json() as {
    post: Post
  }
  t.equal(kept.post.spoilerText, 'careful', 'an edit without it keeps it')
  await expectEvent(t, watching, 'post.updated', PostUpdatedEventSchema)
  const cleared = (await write(author, 'POST', `/api/posts/edit/${id}`, { spoilerText: '' })).json() as { post: Post }
  t.notOk('spoilerText' in cleared.post, 'empty clears it')
  const event = await expectEvent(t, watching, 'post.updated', PostUpdatedEventSchema)
  t.notOk('spoilerText' in event, 'the event has none')
})
