import t from 'tap'
import { MSG } from '../../server/errors.js'
import { PostHistoryReplySchema, type PostVersion } from '../../server/schemas/post-plans.js'
import { PostReplySchema, type Post } from '../../server/schemas/posts.js'
import { ReportsReplySchema } from '../../server/schemas/moderation.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { buildModerationApp, call } from '../helpers/moderation.js'

/**
 * Edit history (DECISIONS §15, §17): every edit keeps the version it replaces; GET /api/posts/{id}/history
 * answers them all, the first first and the current one last, to exactly those who may read the post; a
 * report keeps the version reported; the Mastodon API edits, and reads history and source. The
 * PostgreSQL pass runs this file on PostgreSQL.
 */

const MINIMAL = { prefer: 'return=minimal' }
const write = async (api: TestApp, who: SignedUp, url: string, payload: object) => {
  const res = await api.as(who.token, { method: 'POST', url, headers: MINIMAL, payload })
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
const historyOf = (api: TestApp, token: string | undefined, postId: string) =>
  api.as(token, { method: 'GET', url: `/api/posts/${postId}/history` })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

await t.test('each edit keeps the version before it: all of them, the first first, the current one last', async (t) => {
  const api = await buildApiApp(t)
  const author = await signup(api)
  const made = await write(api, author, '/api/posts', {
    content: 'first words',
    media: [{ url: 'https://example.com/a.jpg', alt: 'a cat' }],
    poll: { options: ['tea', 'coffee'], days: 1 },
  })
  const once = expectOk(t, await historyOf(api, author.token, made._id), 200, PostHistoryReplySchema)
  t.strictSame(
    once.versions,
    [
      {
        content: 'first words',
        spoilerText: '',
        media: [{ url: 'https://example.com/a.jpg', alt: 'a cat' }],
        poll: { options: ['tea', 'coffee'] },
        editedAt: made.createdAt,
      },
    ],
    'a post never edited has one version: itself, dated when it was made',
  )
  await write(api, author, `/api/posts/edit/${made._id}`, { content: 'second words', spoilerText: 'careful' })
  const last = await write(api, author, `/api/posts/edit/${made._id}`, {
    content: 'third words',
    media: [],
    spoilerText: '',
  })
  const { versions } = expectOk(t, await historyOf(api, author.token, made._id), 200, PostHistoryReplySchema)
  t.strictSame(
    versions.map((version: PostVersion) => [version.content, version.spoilerText, version.media.length]),
    [
      ['first words', '', 1],
      ['second words', 'careful', 1],
      ['third words', '', 0],
    ],
    'every version, the first first',
  )
  t.equal(versions.at(-1)?.editedAt, last.editedAt, 'the current one is dated at the last edit')
  t.ok((versions[1]?.editedAt ?? '') > made.createdAt, 'the second is dated at the first edit')
  t.strictSame(versions[2]?.poll, { options: ['tea', 'coffee'] }, 'the poll stays with every version')
})

await t.test('the history is seen by exactly those who may read the post', async (t) => {
  const api = await buildApiApp(t)
  const [author, follower, stranger] = [await signup(api), await signup(api), await signup(api)]
  const follow = await api.as(follower.token, { method: 'POST', url: `/api/users/follow/${author.user._id}` })
  t.equal(follow.statusCode, 200, 'followed')
  const post = await write(api, author, '/api/posts', { content: 'for my followers', visibility: 'followers' })
  await write(api, author, `/api/posts/edit/${post._id}`, { content: 'for my followers, edited' })
  for (const [who, token] of [
    ['the author', author.token],
    ['a follower', follower.token],
  ] as const) {
    const reply = expectOk(t, await historyOf(api, token, post._id), 200, PostHistoryReplySchema, who)
    t.equal(reply.versions.length, 2, `${who} reads both versions`)
  }
  expectError(t, await historyOf(api, stranger.token, post._id), 404, MSG.postNotFound, 'a stranger')
  expectError(t, await historyOf(api, undefined, post._id), 404, MSG.postNotFound, 'someone signed out')
  const blocked = await write(api, author, '/api/posts', { content: 'public' })
  await api.as(author.token, { method: 'POST', url: `/api/users/block/${stranger.user._id}` })
  expectError(t, await historyOf(api, stranger.token, blocked._id), 404, MSG.postNotFound, 'someone blocked')
  expectError(t, await historyOf(api, author.token, crypto.randomUUID()), 404, MSG.postNotFound, 'an unknown post')
  const edit = await api.as(follower.token, {
    method: 'POST',
    url: `/api/posts/edit/${post._id}`,
    payload: { content: 'not mine' },
  })
  expectError(t, edit, 400, MSG.editPostNotOwner, "an edit of another's post")
  const after = expectOk(t, await historyOf(api, author.token, post._id), 200, PostHistoryReplySchema)
  t.equal(after.versions.length, 2, 'a refused edit keeps no version')
})

await t.test('a report keeps the version reported, whatever edits come after', async (t) => {
  const { api, moderator } = await buildModerationApp(t)
  const [author, reporter] = [await signup(api), await signup(api)]
  const post = await write(api, author, '/api/posts', { content: 'something rude' })
  const report = await call(api, reporter.token, 'POST', '/api/reports', {
    targetType: 'post',
    targetId: post._id,
    category: 'abuse',
  })
  t.equal(report.statusCode, 201, 'reported')
  await write(api, author, `/api/posts/edit/${post._id}`, { content: 'something nice' })
  const { reports } = expectOk(t, await call(api, moderator, 'GET', '/api/admin/reports'), 200, ReportsReplySchema)
  const found = reports.find((each) => each.targetId === post._id)
  t.match(found?.targetVersion, { content: 'something rude', spoilerText: '', media: [], poll: null })
  t.equal(found?.targetVersion?.editedAt, post.createdAt, 'dated when that version was written')
  t.match(found?.target, { content: 'something nice' }, 'beside the post as it is now')
})

await t.test('the Mastodon API edits a status and reads its history and source; edited_at marks it', async (t) => {
  const api = await buildApiApp(t, { config: { publicUrl: 'https://chirp.example' } })
  const [author, other] = [await signup(api), await signup(api)]
  const made = await api.app.inject({
    method: 'POST',
    url: '/api/v1/statuses',
    headers: bearer(author.token),
    payload: { status: 'hello there', spoiler_text: 'greeting' },
  })
  t.equal(made.statusCode, 200, 'a Chirp session writes through the Mastodon API')
  const status = made.json() as { id: string; edited_at: string | null }
  t.equal(status.edited_at, null, 'not edited yet')
  const refused = await api.app.inject({
    method: 'PUT',
    url: `/api/v1/statuses/${status.id}`,
    headers: bearer(other.token),
    payload: { status: 'mine now' },
  })
  t.equal(refused.statusCode, 400, "someone else's status is not theirs to edit")
  const edited = await api.app.inject({
    method: 'PUT',
    url: `/api/v1/statuses/${status.id}`,
    headers: bearer(author.token),
    payload: { status: 'hello again', spoiler_text: '' },
  })
  t.equal(edited.statusCode, 200, 'edited')
  const after = edited.json() as { id: string; edited_at: string | null; content: string; spoiler_text: string }
  t.equal(after.id, status.id, 'the same status')
  t.ok(after.edited_at, 'edited_at is set')
  t.equal(after.content, '<p>hello again</p>')
  t.equal(after.spoiler_text, '')
  const history = await api.app.inject({ method: 'GET', url: `/api/v1/statuses/${status.id}/history` })
  t.equal(history.statusCode, 200)
  const edits = history.json() as { content: string; spoiler_text: string; sensitive: boolean; created_at: string }[]
  t.strictSame(
    edits.map((edit) => [edit.content, edit.spoiler_text, edit.sensitive]),
    [
      ['<p>hello there</p>', 'greeting', true],
      ['<p>hello again</p>', '', false],
    ],
    'StatusEdit entities, the first first',
  )
  t.equal(edits.at(-1)?.created_at, after.edited_at, 'the last one dated at the edit')
  const source = await api.app.inject({
    method: 'GET',
    url: `/api/v1/statuses/${status.id}/source`,
    headers: bearer(author.token),
  })
  t.strictSame(source.json(), { id: status.id, text: 'hello again', spoiler_text: '' })
  const unknown = await api.app.inject({ method: 'GET', url: '/api/v1/statuses/999999999/history' })
  t.equal(unknown.statusCode, 404, 'an unknown status has no history')
  const read = expectOk(
    t,
    await api.as(author.token, {
      method: 'GET',
      url: `/api/posts/${(made.json() as { url: string }).url.split('/').at(-1)}`,
    }),
    200,
    PostReplySchema,
  )
  t.equal(read.post.editedAt, after.edited_at, "Chirp's post carries the same edit")
})
