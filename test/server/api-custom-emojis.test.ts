import path from 'node:path'
import t from 'tap'
import * as MSG from '../../common/messages.js'
import { EMOJI_MAX_BYTES } from '../../common/custom-emoji.js'
import { signup } from '../helpers/api.js'
import { PNG, multipart } from '../helpers/images.js'
import { untilMediaDeleted } from '../helpers/jobs.js'
import { buildModerationApp, call } from '../helpers/moderation.js'

/** Custom emoji (DECISIONS §15, §17): admins add and delete them; texts naming them carry them. */

const upload = (shortcode: string, data: Buffer = PNG) =>
  multipart([
    { name: 'shortcode', data: shortcode },
    { name: 'file', filename: 'e.png', type: 'image/png', data },
  ])

void t.test('custom emoji', async (t) => {
  const { api, admin, moderator } = await buildModerationApp(t)
  const add = (token: string, shortcode: string, data?: Buffer) =>
    api.as(token, { method: 'POST', url: '/api/admin/emojis', ...upload(shortcode, data) })
  const listed = async () =>
    (await api.app.inject('/api/v1/custom_emojis')).json() as { shortcode: string; url: string }[]

  await t.test('only admins add them; bad input changes nothing', async (t) => {
    t.equal((await add(moderator, 'blob')).statusCode, 403, 'a moderator may not')
    const bad = await add(admin, 'a')
    t.equal(bad.statusCode, 400)
    t.equal(bad.json<{ errors: string[] }>().errors[0], MSG.badShortcode)
    t.equal((await add(admin, 'no-dash')).statusCode, 400)
    const big = await add(admin, 'big', Buffer.concat([PNG, Buffer.alloc(EMOJI_MAX_BYTES)]))
    t.equal(big.statusCode, 413)
    t.equal(big.json<{ errors: string[] }>().errors[0], MSG.emojiTooLarge)
    t.equal((await add(admin, 'text', Buffer.from('not an image at all, only words'))).statusCode, 415)
    t.same(await listed(), [], 'nothing was added')
  })

  await t.test('a shortcode is unique, and texts carry the emoji they name', async (t) => {
    const made = await add(admin, 'blob_cat')
    t.equal(made.statusCode, 201)
    const { url } = made.json() as { url: string }
    const again = await add(admin, 'blob_cat')
    t.equal(again.statusCode, 422)
    t.equal(again.json<{ errors: string[] }>().errors[0], MSG.shortcodeTaken)
    const [entry] = await listed()
    t.match(entry, { shortcode: 'blob_cat', visible_in_picker: true })
    t.ok(entry?.url.endsWith(url), 'the Mastodon entity has the address, absolute')

    const ana = await signup(api)
    const posted = await call(api, ana.token, 'POST', '/api/posts', { content: 'hello :blob_cat: and :unknown:' })
    const post = (posted.json() as { post: { _id: string; emojis?: unknown } }).post
    t.same(post.emojis, [{ shortcode: 'blob_cat', url }], 'the post names it')
    const read = (await api.app.inject(`/api/posts/${post._id}`)).json() as { post: { emojis?: unknown } }
    t.same(read.post.emojis, [{ shortcode: 'blob_cat', url }])
    await call(api, ana.token, 'POST', `/api/comments/add/${post._id}`, { text: 'me too :blob_cat:' })
    const comments = (await api.app.inject(`/api/comments/${post._id}`)).json() as {
      comments: { emojis?: unknown }[]
    }
    t.same(comments.comments[0]?.emojis, [{ shortcode: 'blob_cat', url }], 'a comment names it')
    const plain = await call(api, ana.token, 'POST', '/api/posts', { content: 'nothing here' })
    t.equal((plain.json() as { post: { emojis?: unknown } }).post.emojis, undefined, 'a post naming none has none')
  })

  await t.test('deleting one deletes its image through the job', async (t) => {
    const [entry] = await listed()
    const url = entry?.url ?? ''
    t.equal((await call(api, moderator, 'DELETE', '/api/admin/emojis/blob_cat')).statusCode, 403)
    t.equal((await call(api, admin, 'DELETE', '/api/admin/emojis/blob_cat')).statusCode, 200)
    t.equal((await call(api, admin, 'DELETE', '/api/admin/emojis/blob_cat')).statusCode, 404)
    await untilMediaDeleted(api, admin)
    t.equal(await api.media.read(path.basename(new URL(url).pathname)), undefined, 'the image is gone')
    t.same(await listed(), [])
  })
})
