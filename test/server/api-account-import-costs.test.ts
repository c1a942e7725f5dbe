import t from 'tap'
import { MSG } from '../../server/errors.js'
import { ImportReplySchema } from '../../server/schemas/account.js'
import { buildApiApp, expectError, expectOk, multipart, signup } from '../helpers/api.js'
import { solidPng } from '../helpers/encoded-images.js'
import { expect429, loose } from '../helpers/rate-limits.js'
import { listMedia, snapshotDb } from '../helpers/seeded.js'
import { makeZip } from '../helpers/zip.js'

/**
 * What an import may cost (DECISIONS §9): it decodes only the images its posts use, no more pixels than
 * its limit, counts them against the upload limit, and a person imports a few times an hour.
 */
const HOUR = 60 * 60_000
const api = await buildApiApp(t, {
  config: { rateLimit: true },
  options: {
    importLimits: { pixels: 4_000 },
    rateLimits: loose({ uploadsPerUser: { max: 3, windowMs: HOUR }, importsPerUser: { max: 3, windowMs: HOUR } }),
  },
})
const importFile = (token: string, name: string, data: Buffer | string) =>
  api.as(token, {
    method: 'POST',
    url: '/api/account/import',
    ...multipart('file', name, 'application/octet-stream', Buffer.from(data)),
  })
const upload = async (token: string) =>
  api.as(token, { method: 'POST', url: '/api/media', ...multipart('file', 'a.png', 'image/png', await solidPng(8, 8)) })
const posting = (...media: string[]) =>
  JSON.stringify(media.map((name) => ({ content: `with ${name}`, media: name, createdAt: '2020-01-01T00:00:00.000Z' })))
const square = await solidPng(50, 50)

await t.test('media no post uses is never decoded; an image many posts use is decoded once', async (t) => {
  const me = await signup(api)
  const archive = await makeZip([
    ['posts.json', posting('media/a.png', 'media/a.png')],
    ['media/a.png', square],
    ['media/unused.png', 'not a picture, and no post names it'],
    ['media/big.png', await solidPng(100, 100)],
  ])
  const mediaBefore = await listMedia(api)
  const body = expectOk(t, await importFile(me.token, 'archive.zip', archive), 200, ImportReplySchema)
  t.equal(body.imported.posts, 2)
  t.equal((await listMedia(api)).length, mediaBefore.length + 1, 'one image stored, for both posts')
})

await t.test('more pixels in all than the limit refuse the import before anything is decoded', async (t) => {
  const me = await signup(api)
  const archive = await makeZip([
    ['posts.json', posting('media/a.png', 'media/b.png')],
    ['media/a.png', square],
    ['media/b.png', square],
  ])
  const before = await snapshotDb(api)
  const mediaBefore = await listMedia(api)
  expectError(t, await importFile(me.token, 'archive.zip', archive), 413, MSG.importTooManyPixels)
  t.strictSame(await snapshotDb(api), before, 'nothing stored changed')
  t.strictSame(await listMedia(api), mediaBefore, 'no image stored')
})

await t.test("an import's images count against the upload limit", async (t) => {
  const me = await signup(api)
  const two = await makeZip([
    ['posts.json', posting('media/a.png', 'media/b.png')],
    ['media/a.png', await solidPng(10, 10)],
    ['media/b.png', await solidPng(12, 12)],
  ])
  expectOk(t, await importFile(me.token, 'archive.zip', two), 200, ImportReplySchema)
  t.equal((await upload(me.token)).statusCode, 201, 'one upload of three is left')
  expect429(t, await upload(me.token), 'then none')
  const before = await snapshotDb(api)
  expect429(t, await importFile(me.token, 'archive.zip', two), 'an import with images once none is left')
  t.strictSame(await snapshotDb(api), before, 'nothing stored changed')

  const other = await signup(api)
  for (let i = 0; i < 3; i++) t.equal((await upload(other.token)).statusCode, 201)
  const words = await makeZip([['posts.json', JSON.stringify([{ content: 'words', createdAt: '2020-01-01' }])]])
  expectOk(
    t,
    await importFile(other.token, 'archive.zip', words),
    200,
    ImportReplySchema,
    'without images it is no upload',
  )
})

await t.test('a person imports three times an hour here, then a 429', async (t) => {
  const me = await signup(api)
  const bea = await signup(api)
  for (let i = 0; i < 3; i++) {
    expectOk(t, await importFile(me.token, 'following_accounts.csv', `${bea.username}\n`), 200, ImportReplySchema)
  }
  expect429(t, await importFile(me.token, 'following_accounts.csv', `${bea.username}\n`), 'the fourth')
  const theirs = await importFile(bea.token, 'following_accounts.csv', `${me.username}\n`)
  expectOk(t, theirs, 200, ImportReplySchema, 'counted per person')
})
