import { randomUUID } from 'node:crypto'
import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { LIMITS } from '../../common/limits.js'
import {
  MediaAttachmentSchema,
  StatusSchema,
  type MediaAttachment,
  type Status,
} from '../../server/mastodon/status-schemas.js'
import { attachmentMessages } from '../../server/services/media-attachments.js'
import { IMAGE_BYTES } from '../helpers/api.js'
import { multipart, type Part } from '../helpers/images.js'
import { bearer, mastodonClient, passwordToken, type MastodonPerson } from '../helpers/mastodon.js'

/**
 * Media of the Mastodon client API (DECISIONS §13): uploads through the media service, kept under an id
 * its uploader alone may read, describe and post with `media_ids`; and `Idempotency-Key` on posting. On
 * whichever store runs, with uploads in MEDIA_DIR or, under test/s3/, in a bucket.
 */
const { api, client, person, call } = await mastodonClient(t)

const image: Part = { name: 'file', filename: 'a.png', type: 'image/png', data: IMAGE_BYTES.png }

const upload = (who: { bearer: string } | undefined, parts: Part[], version = 'v1') => {
  const body = multipart(parts)
  return api.app.inject({
    method: 'POST',
    url: `/api/${version}/media`,
    payload: body.payload,
    headers: { ...body.headers, ...(who ? bearer(who.bearer) : {}) },
  })
}

const uploaded = async (who: MastodonPerson, parts: Part[] = [image], version = 'v1') => {
  const res = await upload(who, parts, version)
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`)
  return res.json<MediaAttachment>()
}

const put = (who: MastodonPerson, id: string, payload: Record<string, unknown>) =>
  api.app.inject({ method: 'PUT', url: `/api/v1/media/${id}`, headers: bearer(who.bearer), payload })

/** How many posts someone has, as Chirp's own API counts them. */
const postCount = async (who: MastodonPerson) => {
  const res = await api.app.inject({ method: 'GET', url: `/api/posts/user/${who.username}?limit=100` })
  return res.json<{ posts: unknown[] }>().posts.length
}

const alice = await person()
const bob = await person()

await t.test('an upload answers a MediaAttachment its uploader can read again', async (t) => {
  const before = await uploaded(alice, [
    { name: 'description', data: 'a gradient' },
    { name: 'focus', data: '0.5,-0.25' },
    image,
  ])
  t.ok(Value.Check(MediaAttachmentSchema, before), 'a MediaAttachment')
  t.match(before, {
    id: /^[0-9a-f]{32}$/,
    type: 'image',
    url: /^https:\/\/chirp\.example\/media\/[0-9a-f-]{36}\.png$/,
    description: 'a gradient',
    meta: { original: { width: 4, height: 3, size: '4x3' }, focus: { x: 0.5, y: -0.25 } },
  })
  t.ok(await api.media.fileOf(before.url), 'stored as an upload is')
  const after = await uploaded(alice, [image, { name: 'description', data: 'sent after the file' }], 'v2')
  t.equal(after.description, 'sent after the file', 'v2, fields after the file')
  t.not(after.id, before.id, 'each upload its own id')
  const read = await call('GET', `/api/v1/media/${before.id}`, alice)
  t.equal(read.statusCode, 200)
  t.same(read.json(), before, 'the same attachment read again')
})

await t.test('nobody but the uploader reads or changes an upload; unknown ids are not found', async (t) => {
  const mine = await uploaded(alice)
  for (const [who, id] of [
    [bob, mine.id],
    [alice, 'f'.repeat(32)],
    [alice, 'nope'],
  ] as const) {
    const read = await call('GET', `/api/v1/media/${id}`, who)
    t.equal(read.statusCode, 404)
    t.same(read.json(), { error: 'Record not found' })
    const change = await put(who, id, { description: 'taken over' })
    t.equal(change.statusCode, 404)
    t.same(change.json(), { error: 'Record not found' })
  }
  t.equal((await call('GET', `/api/v1/media/${mine.id}`, alice)).json<MediaAttachment>().description, null, 'unchanged')
  t.equal((await call('GET', `/api/v1/media/${mine.id}`)).statusCode, 401, 'a token is needed')
  t.equal((await upload(undefined, [image])).statusCode, 401, 'to upload too')
})

await t.test('PUT changes the description and focus; bad values are a 422 changing nothing', async (t) => {
  const mine = await uploaded(alice)
  const changed = await put(alice, mine.id, { description: 'now described', focus: '-1,1' })
  t.equal(changed.statusCode, 200)
  t.match(changed.json(), { id: mine.id, description: 'now described', meta: { focus: { x: -1, y: 1 } } })
  for (const payload of [{ description: 'x'.repeat(LIMITS.mediaAlt + 1) }, { focus: '2,0' }, { focus: 'left' }]) {
    const res = await put(alice, mine.id, payload)
    t.equal(res.statusCode, 422, JSON.stringify(payload).slice(0, 40))
    t.match(res.json(), { error: /^Validation failed: / })
  }
  t.match((await call('GET', `/api/v1/media/${mine.id}`, alice)).json(), {
    description: 'now described',
    meta: { focus: { x: -1, y: 1 } },
  })
})

await t.test('an upload the media service or its fields refuse stores nothing', async (t) => {
  const before = await api.media.names()
  const notImage = await upload(alice, [{ ...image, data: Buffer.from('not an image at all, only some text') }])
  t.equal(notImage.statusCode, 415, 'the media service refuses what is no image')
  const long = await upload(alice, [{ name: 'description', data: 'x'.repeat(LIMITS.mediaAlt + 1) }, image])
  t.equal(long.statusCode, 422, 'a description too long, before the file')
  t.same(long.json(), { error: attachmentMessages.description })
  const lateFocus = await upload(alice, [image, { name: 'focus', data: '9,9' }])
  t.equal(lateFocus.statusCode, 422, 'a bad focus after the file')
  t.equal((await upload(alice, [{ name: 'description', data: 'no file' }])).statusCode, 400, 'no file')
  t.equal((await upload(alice, [image, image])).statusCode, 400, 'two files')
  t.same(await api.media.names(), before, 'nothing stored')
  const reader = await passwordToken(api, client, alice.username, alice.password, 'read')
  t.equal((await upload({ bearer: reader }, [image])).statusCode, 403, 'write:media is needed')
})

await t.test('media_ids posts the upload as the post image, with its description', async (t) => {
  const media = await uploaded(alice, [{ name: 'description', data: 'what it shows' }, image])
  const res = await call('POST', '/api/v1/statuses', alice, { status: 'with a picture', media_ids: [media.id] })
  t.equal(res.statusCode, 200)
  const status = res.json<Status>()
  t.ok(Value.Check(StatusSchema, status))
  t.match(status.media_attachments, [{ id: media.id, url: media.url, description: 'what it shows' }])
  t.match(status.media_attachments[0]?.meta, { original: { width: 4, height: 3 } })
  const postId = status.url?.split('/').at(-1) ?? ''
  const own = await api.app.inject({ method: 'GET', url: `/api/posts/${postId}` })
  t.match(own.json(), { post: { mediaUrl: media.url.replace('https://chirp.example', ''), mediaAlt: 'what it shows' } })
  const read = await call('GET', `/api/v1/statuses/${status.id}`, bob)
  t.equal(read.json<Status>().media_attachments[0]?.id, media.id, 'the same id to every reader')
  const onlyImage = await call('POST', '/api/v1/statuses', alice, { media_ids: [media.id] })
  t.equal(onlyImage.statusCode, 200, 'an image alone is a post')
})

await t.test('media_ids takes up to four uploads, in order, each with its own description', async (t) => {
  const uploads = [
    await uploaded(alice, [{ name: 'description', data: 'the first' }, image]),
    await uploaded(alice),
    await uploaded(alice, [{ name: 'description', data: 'the third' }, image]),
    await uploaded(alice),
  ]
  const res = await call('POST', '/api/v1/statuses', alice, { status: 'four', media_ids: uploads.map((m) => m.id) })
  t.equal(res.statusCode, 200)
  const status = res.json<Status>()
  t.ok(Value.Check(StatusSchema, status))
  t.strictSame(
    status.media_attachments.map((attachment) => [attachment.id, attachment.description]),
    uploads.map((m, i) => [m.id, i === 0 ? 'the first' : i === 2 ? 'the third' : null]),
  )
  const postId = status.url?.split('/').at(-1) ?? ''
  const own = (await api.app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json<{
    post: { media: { alt: string }[] }
  }>()
  t.strictSame(
    own.post.media.map((each) => each.alt),
    ['the first', '', 'the third', ''],
    "Chirp's own post holds the four",
  )
  const read = await call('GET', `/api/v1/statuses/${status.id}`, bob)
  t.strictSame(
    read.json<Status>().media_attachments.map((attachment) => attachment.id),
    uploads.map((m) => m.id),
    'the same ids to every reader',
  )
})

await t.test("more images than a post holds, or someone else's upload, is a 422 writing nothing", async (t) => {
  const five = [
    await uploaded(alice),
    await uploaded(alice),
    await uploaded(alice),
    await uploaded(alice),
    await uploaded(alice),
  ]
  const [one] = five
  if (!one) throw new Error('an upload')
  const theirs = await uploaded(bob)
  const before = await postCount(alice)
  const many = await call('POST', '/api/v1/statuses', alice, { status: 'five', media_ids: five.map((m) => m.id) })
  t.equal(many.statusCode, 422)
  t.same(many.json(), { error: attachmentMessages.tooMany })
  const stolen = await call('POST', '/api/v1/statuses', alice, {
    status: 'not mine',
    media_ids: [one.id, theirs.id],
  })
  t.equal(stolen.statusCode, 422)
  t.same(stolen.json(), { error: attachmentMessages.unknown(theirs.id) })
  const unknown = await call('POST', '/api/v1/statuses', alice, { status: 'nothing', media_ids: ['0'.repeat(32)] })
  t.equal(unknown.statusCode, 422)
  t.equal(await postCount(alice), before, 'no post written')
})

await t.test('an Idempotency-Key answers the first status again, for its sender alone', async (t) => {
  const key = randomUUID()
  const send = (who: MastodonPerson, idempotency: string, status = 'once only') =>
    api.app.inject({
      method: 'POST',
      url: '/api/v1/statuses',
      headers: { ...bearer(who.bearer), 'idempotency-key': idempotency },
      payload: { status },
    })
  const before = await postCount(alice)
  const first = await send(alice, key)
  t.equal(first.statusCode, 200)
  const again = await send(alice, key, 'a different text, the same key')
  t.equal(again.statusCode, 200)
  t.equal(again.json<Status>().id, first.json<Status>().id, 'the same status')
  t.match(again.json<Status>().content, 'once only', 'as it was written')
  t.equal(await postCount(alice), before + 1, 'one post')
  const together = await Promise.all([send(alice, `${key}-2`), send(alice, `${key}-2`), send(alice, `${key}-2`)])
  t.same(new Set(together.map((res) => res.json<Status>().id)).size, 1, 'sent at once, one status')
  t.equal(await postCount(alice), before + 2)
  const other = await send(bob, key)
  t.not(other.json<Status>().id, first.json<Status>().id, "another person's key is their own")
  const fresh = await send(alice, `${key}-3`)
  t.not(fresh.json<Status>().id, first.json<Status>().id, 'another key, another status')
  // A refused write gives the key back: the same key then writes.
  const refused = await send(alice, `${key}-4`, '')
  t.equal(refused.statusCode, 400)
  const retried = await send(alice, `${key}-4`, 'now with text')
  t.equal(retried.statusCode, 200)
  t.equal(await postCount(alice), before + 4)
})
