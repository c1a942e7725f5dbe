import type { LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { defaultAvatarOf } from '../../common/avatars.js'
import { PRESET_AVATARS } from '../../server/schemas/media.js'
import { FeedReplySchema, PostReplySchema, PostsReplySchema } from '../../server/schemas/posts.js'
import { UserReplySchema } from '../../server/schemas/users.js'
import { buildApiApp, expectError, expectOk, IMAGE_BYTES, multipart, signup } from '../helpers/api.js'

const api = await buildApiApp(t)

const get = (url: string, token?: string) => api.as(token, { method: 'GET', url })
const post = (url: string, token?: string, payload?: object) =>
  api.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) })
const edit = (token: string, payload: object) => post('/api/users/edit', token, payload)
const profile = async (username: string, token?: string) =>
  (await get(`/api/users/${username}`, token)).json<{ user: { postCount?: number } }>().user

function expectStatus(t: Test, res: LightMyRequestResponse, status: number) {
  t.equal(res.statusCode, status, `${res.statusCode} ${res.statusCode === status ? '' : res.body}`.trim())
}

async function upload(token: string): Promise<string> {
  const res = await api.as(token, {
    method: 'POST',
    url: '/api/media',
    ...multipart('file', 'a.png', 'image/png', IMAGE_BYTES.png),
  })
  return res.json<{ url: string }>().url
}

async function write(token: string, content: string, mediaUrl = ''): Promise<string> {
  const res = await post('/api/posts', token, { content, ...(mediaUrl ? { mediaUrl } : {}) })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return res.json<{ post: { _id: string } }>().post._id
}

await t.test('a new account without an avatar gets a preset picked by its username, the same every time', async (t) => {
  const names = ['ada_1', 'bea_2', 'cy_3', 'dov_4', 'eli_5', 'fay_6', 'gus_7', 'hal_8']
  const picked = new Set<string>()
  for (const username of names) {
    const { user } = await signup(api, { username })
    const shown = expectOk(t, await get(`/api/users/${username}`), 200, UserReplySchema).user
    t.equal(shown.avatarURL, defaultAvatarOf(username, PRESET_AVATARS), `${username}: the hash's preset`)
    t.equal(user._id, shown._id)
    picked.add(shown.avatarURL)
  }
  t.ok(picked.size > 1, 'not everyone gets the same one')
  t.equal(defaultAvatarOf('ADA_1', PRESET_AVATARS), defaultAvatarOf('ada_1', PRESET_AVATARS), 'without regard to case')
})

await t.test('postCount is the true number of posts, on one person’s record', async (t) => {
  const me = await signup(api)
  t.equal((await profile(me.username)).postCount, 0, 'none yet')
  const ids: string[] = []
  for (let i = 0; i < 23; i++) ids.push(await write(me.token, `post ${i}`))
  const shown = expectOk(t, await get(`/api/users/${me.username}`), 200, UserReplySchema).user
  t.equal(shown.postCount, 23, 'more than one page of the client’s list')
  await api.as(me.token, { method: 'DELETE', url: `/api/posts/${ids[0]}` })
  t.equal((await profile(me.username, me.token)).postCount, 22, 'a deleted post is not counted')
  const edited = expectOk(t, await edit(me.token, { bio: 'hello' }), 201, UserReplySchema).user
  t.equal(edited.postCount, 22, 'the edit’s answer carries it too')
})

await t.test('displayName: set, shown, and empty again (the names show) when cleared', async (t) => {
  const me = await signup(api, { firstName: 'Ada', lastName: 'Byron' })
  t.equal(
    (await get(`/api/users/${me.username}`)).json<{ user: { displayName: string } }>().user.displayName,
    '',
    'none chosen yet',
  )
  const set = expectOk(t, await edit(me.token, { displayName: 'Countess 🌙' }), 201, UserReplySchema).user
  t.equal(set.displayName, 'Countess 🌙')
  t.equal(set.firstName, 'Ada', 'the names stay')
  const cleared = expectOk(t, await edit(me.token, { displayName: '' }), 201, UserReplySchema).user
  t.equal(cleared.displayName, '', 'cleared')
  t.equal(cleared.firstName, 'Ada', 'the names were never touched')
  expectError(
    t,
    await edit(me.token, { displayName: 'x'.repeat(51) }),
    400,
    'displayName must NOT have more than 50 characters',
  )
  expectError(t, await edit(me.token, { displayName: 5 }), 400, 'displayName must be string')
})

await t.test('displayName goes wherever the person shows: posts, comments, follow lists, search', async (t) => {
  const me = await signup(api, { firstName: 'Grace', lastName: 'Hopper' })
  const fan = await signup(api)
  expectStatus(t, await edit(me.token, { displayName: 'Amazing Grace' }), 201)
  const postId = await write(me.token, 'named by my chosen name')
  expectStatus(t, await post(`/api/comments/add/${postId}`, me.token, { text: 'and so is this' }), 201)
  const { user } = (await get(`/api/users/${me.username}`)).json<{ user: { _id: string } }>()
  expectStatus(t, await post(`/api/users/follow/${user._id}`, fan.token), 200)
  const read = expectOk(t, await get(`/api/posts/${postId}`, fan.token), 200, PostReplySchema).post
  t.equal(read.displayName, 'Amazing Grace', 'the post')
  t.equal(read.firstName, 'Grace', 'beside the names')
  t.equal(read.comments[0]?.displayName, 'Amazing Grace', 'the comment')
  const followed = (await profile(fan.username, fan.token)) as { following?: { displayName?: string }[] }
  t.equal(followed.following?.[0]?.displayName, 'Amazing Grace', 'a follow list')
  const found = (await get(`/api/search?type=users&q=${me.username}`, fan.token)).json<{
    users: { displayName?: string }[]
  }>()
  t.equal(found.users[0]?.displayName, 'Amazing Grace', 'people search')
  expectStatus(t, await edit(me.token, { displayName: '' }), 201)
  const plain = expectOk(t, await get(`/api/posts/${postId}`, fan.token), 200, PostReplySchema).post
  t.equal(plain.displayName, undefined, 'none once cleared: the names show')
})

await t.test('avatar and banner: an upload of this server is saved; anything else is refused', async (t) => {
  const me = await signup(api)
  const avatar = await upload(me.token)
  const banner = await upload(me.token)
  const saved = expectOk(t, await edit(me.token, { avatarURL: avatar, bannerURL: banner }), 201, UserReplySchema).user
  t.equal(saved.avatarURL, avatar)
  t.equal(saved.bannerURL, banner)
  const again = expectOk(t, await get(`/api/users/${me.username}`), 200, UserReplySchema).user
  t.equal(again.bannerURL, banner, 'kept')
  const postId = await write(me.token, 'with my new face')
  const shown = (await get(`/api/posts/${postId}`)).json<{ post: { avatarURL: string } }>().post
  t.equal(shown.avatarURL, avatar, 'the posts show the new avatar')

  const banners = [
    'javascript:alert(1)',
    '/media/../db.json',
    'http://example.com/x.png',
    '/media/x.png',
    'data:image/png;base64,AA',
  ]
  for (const bannerURL of banners) {
    expectError(
      t,
      await edit(me.token, { bannerURL }),
      400,
      'bannerURL must be empty, an uploaded /media/ file or an https URL',
      bannerURL,
    )
  }
  expectError(
    t,
    await edit(me.token, { avatarURL: '/media/../../etc/passwd' }),
    400,
    'avatarURL must be a preset avatar, an uploaded /media/ file or an https URL',
  )
  const removed = expectOk(t, await edit(me.token, { bannerURL: '' }), 201, UserReplySchema).user
  t.equal(removed.bannerURL, '', 'an empty banner takes it away')
})

await t.test('GET /api/posts/user/{username}?filter=media lists only posts with an image, paged', async (t) => {
  const me = await signup(api)
  const image = await upload(me.token)
  const withImage: string[] = []
  for (let i = 0; i < 7; i++) {
    if (i % 2 === 0) withImage.unshift(await write(me.token, `picture ${i}`, image))
    else await write(me.token, `words ${i}`)
  }
  const seen: string[] = []
  let cursor: string | null | undefined
  do {
    const url = `/api/posts/user/${me.username}?filter=media&compact=1&limit=2${cursor ? `&cursor=${cursor}` : ''}`
    const body = expectOk(t, await get(url), 200, PostsReplySchema)
    seen.push(...body.posts.map((p) => p._id))
    cursor = body.nextCursor
  } while (cursor)
  t.strictSame(seen, withImage, 'newest first, images only')
  const all = expectOk(t, await get(`/api/posts/user/${me.username}`), 200, PostsReplySchema).posts
  t.equal(all.length, 7, 'without the filter, every post')
  expectError(t, await get(`/api/posts/user/${me.username}?filter=video`), 400, 'filter must be one of "media"')
})

await t.test('GET /api/users/{username}/likes: newest like first, paged, hidden authors left out', async (t) => {
  const [liker, author, blocker, muted] = await Promise.all([signup(api), signup(api), signup(api), signup(api)])
  const a = await write(author.token, 'first')
  const b = await write(author.token, 'second')
  const c = await write(blocker.token, 'by someone who blocks the reader')
  const d = await write(muted.token, 'by someone the reader mutes')
  for (const id of [b, a, c, d]) expectStatus(t, await post(`/api/posts/like/${id}`, liker.token), 201)

  const first = expectOk(t, await get(`/api/users/${liker.username}/likes?limit=2&compact=1`), 200, FeedReplySchema)
  t.strictSame(
    first.posts.map((p) => p._id),
    [d, c],
    'the most recent likes first',
  )
  t.type(first.nextCursor, 'string')
  const second = expectOk(
    t,
    await get(`/api/users/${liker.username}/likes?limit=2&compact=1&cursor=${first.nextCursor}`),
    200,
    FeedReplySchema,
  )
  t.strictSame(
    second.posts.map((p) => p._id),
    [a, b],
  )

  // An unlike takes it off; a like again puts it on top.
  expectStatus(t, await post(`/api/posts/dislike/${a}`, liker.token), 201)
  expectStatus(t, await post(`/api/posts/dislike/${b}`, liker.token), 201)
  expectStatus(t, await post(`/api/posts/like/${b}`, liker.token), 201)
  const now = expectOk(t, await get(`/api/users/${liker.username}/likes`), 200, FeedReplySchema)
  t.strictSame(
    now.posts.map((p) => p._id),
    [b, d, c],
  )

  // A deleted post leaves the list.
  await api.as(muted.token, { method: 'DELETE', url: `/api/posts/${d}` })
  const d2 = await write(muted.token, 'again')
  expectStatus(t, await post(`/api/posts/like/${d2}`, liker.token), 201)
  t.strictSame(
    expectOk(t, await get(`/api/users/${liker.username}/likes`), 200, FeedReplySchema).posts.map((p) => p._id),
    [d2, b, c],
  )

  // Blocks and mutes: a reader does not see, in someone's likes, the posts of people hidden from them.
  const reader = await signup(api)
  expectStatus(t, await post(`/api/users/block/${reader.user._id}`, blocker.token), 200)
  expectStatus(t, await post(`/api/users/mute/${muted.user._id}`, reader.token), 200)
  t.strictSame(
    expectOk(t, await get(`/api/users/${liker.username}/likes`, reader.token), 200, FeedReplySchema).posts.map(
      (p) => p._id,
    ),
    [b],
    'neither the blocker’s nor the muted person’s post',
  )
  // Someone who blocks the reader is not there, nor are their likes.
  expectStatus(t, await post(`/api/users/block/${reader.user._id}`, liker.token), 200)
  expectError(t, await get(`/api/users/${liker.username}/likes`, reader.token), 404, 'User not found')
  expectError(t, await get('/api/users/nobody_here_at_all/likes'), 404, 'User not found')
  expectError(t, await get(`/api/users/${author.username}/likes?limit=0`), 400, 'limit must be >= 1')
})
