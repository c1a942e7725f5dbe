import { createReadStream } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import path from 'node:path'
import generator, { type Entity, type OAuth, type WebSocketInterface } from 'megalodon'
import t, { type Test } from 'tap'
import { IMAGE_BYTES, signup } from '../helpers/api.js'
import { listeningChirp } from './harness.js'

/**
 * megalodon, the library of several desktop clients, against Chirp (DECISIONS §13). It logs in as a
 * browser would: it registers an app and makes the sign-in page's address, the person signs in and
 * approves on that page, and megalodon trades the code from the redirect for a token. Then it reads the
 * account and the instance, uploads an image and posts it, posts a poll, follows, favourites, reblogs,
 * pages its home timeline, reads its notifications, streams its home over the WebSocket (a post, then its
 * deletion) and revokes its token. On whichever store runs (test/clients/megalodon-postgres.test.ts runs
 * it on PostgreSQL).
 */
const { api, base } = await listeningChirp(t)
const PASSWORD = 'a password megalodon types'
const me = await signup(api, { password: PASSWORD })
const friend = await signup(api)
await api.as(friend.token, { method: 'POST', url: `/api/users/follow/${me.user._id}` })

const REDIRECT = 'https://desk.example/callback'
const SCOPES = ['read', 'write', 'follow']
const anonymous = generator('mastodon', base)
const registered = await anonymous.registerApp('megalodon journey', { scopes: SCOPES, redirect_uris: REDIRECT })

/** The sign-in page's form, sent as the person's browser sends it after they typed and pressed Approve. */
async function approve(t: Test, address: string): Promise<string> {
  const asked = new URL(address)
  t.equal(`${asked.origin}${asked.pathname}`, `${base}/oauth/authorize`, 'megalodon sends the person to the page')
  const page = await fetch(asked)
  t.equal(page.status, 200)
  t.match(await page.text(), /megalodon journey/, 'the page names the app')
  const form = new URLSearchParams(asked.searchParams)
  form.set('username', me.username)
  form.set('password', PASSWORD)
  form.set('decision', 'approve')
  const answer = await fetch(`${base}/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' })
  const back = new URL(answer.headers.get('location') ?? '', base)
  t.equal(`${back.origin}${back.pathname}`, REDIRECT, 'and back to the app')
  return back.searchParams.get('code') ?? ''
}

let token: OAuth.TokenData | undefined
await t.test('megalodon sends the person to the sign-in page, and trades the code it gets back', async (t) => {
  const code = await approve(t, registered.url ?? '')
  token = await anonymous.fetchAccessToken(registered.client_id, registered.client_secret, code, REDIRECT)
  t.equal(token.scope, SCOPES.join(' '))
})
const accessToken = token?.access_token ?? ''
const client = generator('mastodon', base, accessToken)

/**
 * The first message named `event` the stream delivers that `wanted` accepts, within a few seconds
 * (undefined past them); the listener goes with the answer.
 */
const next = <T>(stream: WebSocketInterface, event: string, wanted: (payload: T) => boolean = () => true) =>
  new Promise<T | undefined>((resolve) => {
    const hear = (payload: T) => {
      if (!wanted(payload)) return
      clearTimeout(timer)
      stream.removeListener(event, hear)
      resolve(payload)
    }
    const timer = setTimeout(() => {
      stream.removeListener(event, hear)
      resolve(undefined)
    }, 10_000)
    stream.on(event, hear)
  })

await t.test('megalodon reads the account and the instance', async (t) => {
  const { data: account } = await client.verifyAccountCredentials()
  t.match(account, { id: me.user._id, username: me.username, acct: me.username })
  const { data: instance } = await client.getInstance()
  t.match(instance, { version: /^4\.3\.0 \(compatible; Chirp / })
  t.match(await client.streamingURL(), /^ws:\/\//)
})

await t.test('megalodon uploads an image and posts it; then a poll', async (t) => {
  // megalodon sends a file as a stream from the disk, as a desktop client picks one.
  const dir = await mkdtemp(path.join(tmpdir(), 'chirp-megalodon-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'picture.png')
  await writeFile(file, IMAGE_BYTES.png)
  const { data: media } = await client.uploadMedia(createReadStream(file), { description: 'a small gradient' })
  t.match(media, { type: 'image', description: 'a small gradient' })
  const { data: pictured } = await client.postStatus('with a picture #megalodon', { media_ids: [media.id] })
  const status = pictured as Entity.Status
  t.same(
    status.media_attachments.map((attachment) => [attachment.id, attachment.description]),
    [[media.id, 'a small gradient']],
  )
  const { data: polled } = await client.postStatus('which one?', {
    poll: { options: ['this', 'that'], expires_in: 3600 },
    visibility: 'unlisted',
  })
  t.same(
    (polled as Entity.Status).poll?.options.map((option) => option.title),
    ['this', 'that'],
  )
})

await t.test('megalodon follows, favourites, reblogs, and pages its home', async (t) => {
  t.equal((await client.followAccount(friend.user._id)).data.following, true)
  await api.as(friend.token, { method: 'POST', url: '/api/posts', payload: { content: 'from a friend' } })
  const { data: newest } = await client.getHomeTimeline({ limit: 1 })
  t.match(newest[0], { content: /from a friend/, account: { id: friend.user._id } }, "the friend's post")
  const postId = newest[0]?.id ?? ''
  t.equal((await client.favouriteStatus(postId)).data.favourited, true)
  t.equal((await client.reblogStatus(postId)).data.reblogged, true)
  const { data: page } = await client.getHomeTimeline({ limit: 2 })
  const { data: older } = await client.getHomeTimeline({ limit: 2, max_id: page.at(-1)?.id ?? '' })
  const ids = [...page, ...older].map((status) => status.id)
  t.equal(new Set(ids).size, ids.length, 'no status twice across pages')
  t.ok(older.length > 0, 'an older page, by max_id')
  t.same(
    (await client.getFavourites()).data.map((status) => status.id),
    [postId],
  )
})

await t.test('megalodon reads its notifications', async (t) => {
  const { data: notifications } = await client.getNotifications()
  t.same(
    notifications.map((notification) => [notification.type, notification.account?.acct]),
    [['follow', friend.username]],
  )
})

await t.test('megalodon streams its home over the WebSocket: a post, then its deletion', async (t) => {
  const stream = await client.userStreaming()
  t.teardown(() => stream.stop())
  const connected = next(stream, 'connect')
  stream.on('error', () => {})
  t.not(await connected, undefined, 'connected')
  // The stream is named in the socket's address and starts once the server has read whom the person
  // follows and hides, a moment after the socket opens: a first post, sent until the stream hears one
  // (a few tries, each bounded), marks that moment.
  let heard = false
  for (let attempt = 0; attempt < 5 && !heard; attempt++) {
    const probe = next<Entity.Status>(stream, 'update')
    await client.postStatus(`is the stream open? ${attempt}`)
    heard = (await Promise.race([probe, sleep(2_000)])) !== undefined
  }
  t.ok(heard, 'the stream delivers')
  const updated = next<Entity.Status>(stream, 'update', (status) => status.content.includes('heard live'))
  const { data: live } = await client.postStatus('heard live')
  const liveId = (live as Entity.Status).id
  t.equal((await updated)?.id, liveId, 'the update')
  const deleted = next<string>(stream, 'delete')
  await client.deleteStatus(liveId)
  t.equal(await deleted, liveId, 'the deletion, a bare id')
})

await t.test('megalodon revokes its token, which then stops working', async (t) => {
  await client.revokeToken(registered.client_id, registered.client_secret, accessToken)
  const refused = await client.verifyAccountCredentials().then(
    () => undefined,
    (error: unknown) => error,
  )
  t.match(refused, { response: { status: 401 } })
})
