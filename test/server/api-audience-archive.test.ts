import t from 'tap'
import { VISIBILITIES } from '../../common/audience.js'
import { ImportReplySchema } from '../../server/schemas/account.js'
import { buildApiApp, expectError, expectOk, multipart, signup, type SignedUp } from '../helpers/api.js'
import { call } from '../helpers/moderation.js'
import { makeZip, readZip } from '../helpers/zip.js'

/**
 * An account's archive keeps each post's audience (DECISIONS §12): the export writes it, the import
 * keeps it, and an audience that is none of the four refuses the import like any bad value.
 */
const api = await buildApiApp(t)
const importArchive = (who: SignedUp, archive: Buffer) =>
  api.as(who.token, {
    method: 'POST',
    url: '/api/account/import',
    ...multipart('file', 'archive.zip', 'application/zip', archive),
  })
type Archived = { content: string; visibility?: string }
const exportedPosts = async (who: SignedUp) => {
  const files = await readZip((await call(api, who.token, 'GET', '/api/account/export')).rawPayload)
  return JSON.parse(files.get('posts.json')?.toString('utf8') ?? '[]') as Archived[]
}
const at = '2020-05-01T00:00:00.000Z'

await t.test('an export writes each post with its audience, and an import keeps it', async (t) => {
  const [old, friend] = [await signup(api), await signup(api)]
  for (const visibility of VISIBILITIES) {
    await call(api, old.token, 'POST', '/api/posts', { content: `${visibility} @${friend.username}`, visibility })
  }
  const archive = (await call(api, old.token, 'GET', '/api/account/export')).rawPayload
  const written = JSON.parse((await readZip(archive)).get('posts.json')?.toString('utf8') ?? '[]') as Archived[]
  t.strictSame(
    written.map((post) => post.visibility),
    [...VISIBILITIES],
    'posts.json: each with its audience',
  )
  const next = await signup(api)
  const body = expectOk(t, await importArchive(next, archive), 200, ImportReplySchema)
  t.equal(body.imported.posts, 4, 'all four imported')
  t.strictSame(
    (await exportedPosts(next)).map((post) => [post.content.split(' ')[0], post.visibility]),
    VISIBILITIES.map((visibility) => [visibility, visibility]),
    'each kept its audience',
  )
})

await t.test('a post of an archive written before audiences is public', async (t) => {
  const me = await signup(api)
  const archive = await makeZip([['posts.json', JSON.stringify([{ content: 'from before', createdAt: at }])]])
  expectOk(t, await importArchive(me, archive), 200, ImportReplySchema)
  t.strictSame(
    (await exportedPosts(me)).map((post) => post.visibility),
    ['public'],
  )
})

await t.test('an audience that is none of the four refuses the whole import, saying where', async (t) => {
  const me = await signup(api)
  const message = 'posts.json: post 2: visibility must be one of "public", "unlisted", "followers", "direct"'
  for (const visibility of ['secret', 'Public', '', 7, null, ['public']]) {
    const posts = [
      { content: 'fine', createdAt: at, visibility: 'followers' },
      { content: 'not fine', createdAt: at, visibility },
    ]
    const archive = await makeZip([['posts.json', JSON.stringify(posts)]])
    expectError(t, await importArchive(me, archive), 400, message, JSON.stringify(visibility))
  }
  t.strictSame(await exportedPosts(me), [], 'nothing was imported')
})

await t.test('the API refuses an unknown audience in the same words', async (t) => {
  const me = await signup(api)
  const res = await call(api, me.token, 'POST', '/api/posts', { content: 'x', visibility: 'secret' })
  t.equal(res.statusCode, 400)
  t.match(
    res.json<{ errors: string[] }>().errors[0],
    /visibility must be one of "public", "unlisted", "followers", "direct"$/,
  )
})
