import Fastify from 'fastify'
import t from 'tap'
import { BookmarksReplySchema, PostsReplySchema } from '../../server/schemas/posts.js'
import { FollowReplySchema, UserReplySchema, UsersReplySchema, type User } from '../../server/schemas/users.js'
import { buildApiApp, expectError, expectNoSecrets, expectOk, signup } from '../helpers/api.js'

const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'
const SEEDED = ['guest', 'maya.lin', 'theo_park', 'sam.okafor', 'lucia.rossi', 'noah_kim']

const api = await buildApiApp(t)
const { app } = api
const guest = await api.login('guest')
const maya = await api.login('maya.lin')

const get = (url: string, token?: string) => api.as(token, { method: 'GET', url })
const post = (url: string, token?: string, payload?: object) =>
  api.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) })
const edit = (token: string, payload: object) => post('/api/users/edit', token, payload)
const ids = (users: readonly { _id: string }[]) => users.map((user) => user._id)
/** The ids of a record's bookmarks, which must be whole posts: a bare id reads as a mismatch. */
const bookmarkedIds = (bookmarks: ReadonlyArray<User['bookmarks'][number] | string>) =>
  bookmarks.map((bookmark) => (typeof bookmark === 'string' ? `a bare id ${bookmark}` : bookmark._id))
const anyPostId = async () => ((await get('/api/posts')).json() as { posts: { _id: string }[] }).posts

await t.test(
  "GET /api/users answers 200 { users }: the seeded six, no email or bookmarks but the caller's own",
  async (t) => {
    const anonymous = await get('/api/users')
    const { users } = expectOk(t, anonymous, 200, UsersReplySchema, 'anonymous')
    expectNoSecrets(t, anonymous, 'GET /api/users')
    t.strictSame(
      users
        .map((user) => user.username)
        .slice(0, 6)
        .sort(),
      [...SEEDED].sort(),
    )
    t.notOk('nextCursor' in anonymous.json(), 'no nextCursor without limit or cursor')
    t.ok(
      users.every((user) => user.email === undefined),
      'no email when anonymous',
    )

    const mine = expectOk(t, await get('/api/users', guest), 200, UsersReplySchema, 'as guest').users
    const withEmail = mine.filter((user) => user.email !== undefined)
    t.strictSame(
      withEmail.map((user) => user.username),
      ['guest'],
      "only the caller's own record carries an email",
    )
    t.equal(withEmail[0]?.email, 'guest@chirp.local')
    const mayaRecord = mine.find((user) => user.username === 'maya.lin') as User
    t.strictSame(
      mayaRecord.followers.map((user) => user.username).sort(),
      ['guest', 'lucia.rossi', 'sam.okafor', 'theo_park'],
      'followers are user summaries',
    )
    t.strictSame(Object.keys(mayaRecord.followers[0] ?? {}).sort(), [
      '_id',
      'avatarURL',
      'firstName',
      'lastName',
      'username',
    ])
  },
)

await t.test('GET /api/users pages with limit and cursor, and refuses bad ones', async (t) => {
  const all = expectOk(t, await get('/api/users'), 200, UsersReplySchema).users
  const seen: string[] = []
  let cursor: string | null | undefined
  for (let page = 0; page < 10; page++) {
    const res = await get(`/api/users?limit=4${cursor ? `&cursor=${cursor}` : ''}`)
    const body = expectOk(t, res, 200, UsersReplySchema, `page ${page + 1}`)
    t.ok(body.users.length <= 4, 'at most limit users')
    t.ok('nextCursor' in body, 'a paged answer carries nextCursor')
    seen.push(...ids(body.users))
    cursor = body.nextCursor
    if (cursor === null) break
    t.type(cursor, 'string')
  }
  t.equal(cursor, null, 'the last page says nextCursor: null')
  t.strictSame(seen, ids(all), 'the pages together are the whole list, in order')

  for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5']) {
    const res = await get(`/api/users?${query}`)
    t.equal(res.statusCode, 400, query)
    t.match(res.json(), { errors: [/^limit /] }, `${query}: the message names limit`)
  }
  expectError(t, await get('/api/users?limit=2&cursor=bm90LWEtY3Vyc29y'), 400, 'cursor is invalid')
  const unknownQuery = expectOk(
    t,
    await get('/api/users?sort=latest&_=1700000000'),
    200,
    UsersReplySchema,
    'unknown query fields',
  )
  t.strictSame(ids(unknownQuery.users), ids(all), 'are ignored')
})

await t.test('GET /api/users/:username answers 200 { user }; email and bookmarks only for the owner', async (t) => {
  const postId = (await anyPostId())[0]?._id as string
  t.equal((await post(`/api/users/bookmark/${postId}`, guest)).statusCode, 200, 'guest bookmarks a post')
  t.teardown(() => post(`/api/users/remove-bookmark/${postId}`, guest))

  const own = await get('/api/users/guest', guest)
  const { user } = expectOk(t, own, 200, UserReplySchema, 'own record')
  expectNoSecrets(t, own, 'GET /api/users/guest')
  t.equal(user.email, 'guest@chirp.local')
  t.strictSame(bookmarkedIds(user.bookmarks), [postId], 'the owner sees the bookmarks, as posts')
  t.strictSame(user.following.map((other) => other.username).sort(), ['maya.lin', 'theo_park'])

  for (const [who, token] of [
    ['another user', maya],
    ['anonymous', undefined],
  ] as const) {
    const res = await get('/api/users/guest', token)
    const other = expectOk(t, res, 200, UserReplySchema, who).user
    t.notOk('email' in other, `${who}: no email`)
    t.strictSame(other.bookmarks, [], `${who}: bookmarks are hidden`)
  }
  expectError(t, await get('/api/users/nobody_at_all'), 404, 'User not found')
  t.equal((await get('/api/users/ab')).statusCode, 400, 'a username that cannot exist is a 400')
})

await t.test('GET /api/users/:_id finds a user by id too, as the original API did', async (t) => {
  const byName = expectOk(t, await get('/api/users/maya.lin'), 200, UserReplySchema).user
  const byId = expectOk(t, await get(`/api/users/${byName._id}`), 200, UserReplySchema, 'by _id').user
  t.strictSame(byId, byName, 'the same record either way')
  const own = expectOk(t, await get(`/api/users/${byName._id}`, maya), 200, UserReplySchema, 'own, by _id').user
  t.equal(own.email, byName.email ?? own.email, 'the owner looking up by id sees their own record')
  t.ok('email' in own, 'with email, as the owner')
  expectError(t, await get(`/api/users/${crypto.randomUUID()}`), 404, 'User not found')
})

await t.test('POST /api/users/edit answers 201 { user } with the changes, bare or as { userData }', async (t) => {
  const me = await signup(api)
  const changes = {
    firstName: 'Edited',
    lastName: 'Person',
    bio: 'b'.repeat(160),
    website: 'https://example.com/me?tab=1',
    avatarURL: '/avatars/avatar-3.svg',
  }
  const res = await edit(me.token, changes)
  const { user } = expectOk(t, res, 201, UserReplySchema, 'edit')
  expectNoSecrets(t, res, 'POST /api/users/edit')
  t.match(user, { ...changes, username: me.username, email: me.user.email })
  t.ok(Date.parse(user.updatedAt) >= Date.parse(user.createdAt), 'updatedAt is set')
  t.match(expectOk(t, await get(`/api/users/${me.username}`), 200, UserReplySchema).user, changes, 'the change is kept')

  const wrapped = await edit(me.token, { userData: { bio: 'wrapped', website: 'http://example.org' } })
  t.match(expectOk(t, wrapped, 201, UserReplySchema, 'wrapped').user, {
    bio: 'wrapped',
    website: 'http://example.org',
    firstName: 'Edited',
  })
  const same = await edit(me.token, { username: me.username, bio: '' })
  t.match(expectOk(t, same, 201, UserReplySchema, 'same username').user, { bio: '', website: 'http://example.org' })
  const cleared = await edit(me.token, { website: '' })
  t.equal(expectOk(t, cleared, 201, UserReplySchema, 'empty website').user.website, '')
})

await t.test('profile edit limits: bio 160, names 1 to 50, website http(s) of at most 200', async (t) => {
  const me = await signup(api)
  const fieldError = async (payload: object, field: string, what: string) => {
    const res = await edit(me.token, payload)
    t.equal(res.statusCode, 400, `${what}: 400`)
    t.match(res.json(), { errors: [new RegExp(`^${field} `)] }, `${what}: names ${field}`)
    t.equal((res.json() as { errors: string[] }).errors.length, 1, `${what}: one message`)
  }
  await fieldError({ bio: 'b'.repeat(161) }, 'bio', '161-character bio')
  for (const field of ['firstName', 'lastName']) {
    await fieldError({ [field]: '' }, field, `empty ${field}`)
    await fieldError({ [field]: 'n'.repeat(51) }, field, `51-character ${field}`)
    t.equal((await edit(me.token, { [field]: 'n'.repeat(50) })).statusCode, 201, `50-character ${field}`)
  }
  const longest = `https://example.com/${'a'.repeat(180)}`
  t.equal(longest.length, 200)
  t.equal((await edit(me.token, { website: longest })).statusCode, 201, '200-character website')
  await fieldError({ website: `${longest}a` }, 'website', '201-character website')
  await fieldError({ bio: 160 }, 'bio', 'a number as bio')

  const badWebsite = 'website must be empty or an http(s) URL without credentials'
  const refused = [
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'ftp://example.com/file',
    '/relative/path',
    'relative/path',
    'example.com',
    '//evil.example.com',
    'https://user:secret@example.com',
    'https://user@example.com',
    'http://',
    'https:example.com',
    ' https://example.com',
  ]
  for (const website of refused)
    expectError(t, await edit(me.token, { website }), 400, badWebsite, JSON.stringify(website))
  const after = expectOk(t, await get(`/api/users/${me.username}`), 200, UserReplySchema).user
  t.equal(after.website, longest, 'a refused edit changes nothing')
})

await t.test(
  'profile edit refuses a new username (404) and ignores password, _id, email and other owned fields',
  async (t) => {
    const me = await signup(api)
    for (const username of ['someone_else', me.username.toUpperCase(), 'guest']) {
      expectError(t, await edit(me.token, { username }), 404, 'Username cannot be changed', `to ${username}`)
    }
    const postId = (await anyPostId())[0]?._id as string
    t.equal((await post(`/api/users/bookmark/${postId}`, me.token)).statusCode, 200, 'a bookmark to keep')
    const mayaId = ((await get('/api/users/maya.lin')).json() as { user: User }).user._id
    const before = expectOk(t, await get(`/api/users/${me.username}`, me.token), 200, UserReplySchema).user
    const ignored = [
      { password: 'new-password-1' },
      { userData: { password: 'new-password-1' } },
      { _id: 'x', bio: 'hi' },
      { email: 'new@example.com' },
      { bookmarks: [] },
      {
        following: [{ _id: mayaId }],
        followers: [mayaId],
        createdAt: '2000-01-01T00:00:00.000Z',
        token: 'x',
        tokenVersion: 99,
      },
    ]
    for (const body of ignored)
      t.equal((await edit(me.token, body)).statusCode, 201, `${JSON.stringify(body)} is accepted`)
    for (const avatarURL of ['javascript:alert(1)', 'http://example.com/a.png', '/media/../db.json', '']) {
      const res = await edit(me.token, { avatarURL })
      t.equal(res.statusCode, 400, `avatarURL ${JSON.stringify(avatarURL)} is a 400`)
    }
    t.equal((await edit(me.token, { avatarURL: 'https://cdn.example.com/me.png' })).statusCode, 201, 'an https avatar')
    const still = expectOk(t, await get(`/api/users/${me.username}`, me.token), 200, UserReplySchema).user
    t.equal(still.username, me.username)
    t.equal(still._id, me.user._id, 'the id is unchanged')
    t.equal(still.email, me.user.email, 'the email is unchanged')
    t.equal(still.bio, 'hi', 'the known field beside an unknown one is applied')
    t.strictSame(still.bookmarks, before.bookmarks, 'bookmarks are unchanged')
    t.strictSame(
      [still.following, still.followers, still.createdAt],
      [[], [], before.createdAt],
      'follows and dates are unchanged',
    )
    t.equal((await api.login(me.username, me.password)).length > 0, true, 'the password still works')
    const changed = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: me.username, password: 'new-password-1' },
    })
    t.equal(changed.statusCode, 401, 'and the one sent in the edit does not')
    t.equal((await get('/api/feed', me.token)).statusCode, 200, 'the token still works')
    expectError(t, await post('/api/users/edit', undefined, { bio: 'x' }), 401, INVALID_TOKEN, 'no token')
  },
)

await t.test('follow and unfollow answer 200 { user, followUser } and change both sides', async (t) => {
  const a = await signup(api)
  const b = await signup(api)
  const summaryOf = (user: { _id: string; username: string }) => ({ _id: user._id, username: user.username })

  const res = await post(`/api/users/follow/${b.user._id}`, a.token)
  const follow = expectOk(t, res, 200, FollowReplySchema, 'follow')
  expectNoSecrets(t, res, 'follow')
  t.equal(follow.user.username, a.username, 'user is me')
  t.equal(follow.user.email, a.user.email, 'my own record carries my email')
  t.equal(follow.followUser?.username, b.username, 'followUser is the other person')
  t.notOk(follow.followUser && 'email' in follow.followUser, 'the other record does not')
  t.notOk('requested' in follow, 'a follow, not a request')
  t.match(follow.user.following, [summaryOf(b.user)])
  t.match(follow.followUser?.followers, [summaryOf(a.user)])
  const aAfter = expectOk(t, await get(`/api/users/${a.username}`), 200, UserReplySchema).user
  const bAfter = expectOk(t, await get(`/api/users/${b.username}`), 200, UserReplySchema).user
  t.strictSame(ids(aAfter.following), [b.user._id], 'kept: my following')
  t.strictSame(ids(bAfter.followers), [a.user._id], 'kept: their followers')
  t.strictSame(ids(aAfter.followers), [], 'following is not mutual')
  expectError(t, await post(`/api/users/follow/${b.user._id}`, a.token), 400, 'User Already following')

  const undo = await post(`/api/users/unfollow/${b.user._id}`, a.token)
  const unfollow = expectOk(t, undo, 200, FollowReplySchema, 'unfollow')
  expectNoSecrets(t, undo, 'unfollow')
  t.strictSame(unfollow.user.following, [])
  t.strictSame(unfollow.followUser?.followers, [])
  t.strictSame(expectOk(t, await get(`/api/users/${b.username}`), 200, UserReplySchema).user.followers, [], 'kept')
  expectError(t, await post(`/api/users/unfollow/${b.user._id}`, a.token), 400, 'User already not following')
})

await t.test('follow errors: self 404, unknown user 404, no token 401; a body is ignored', async (t) => {
  const me = await signup(api)
  expectError(
    t,
    await post(`/api/users/follow/${me.user._id}`, me.token),
    404,
    'You cannot follow yourself',
    'self-follow',
  )
  expectError(
    t,
    await post(`/api/users/unfollow/${me.user._id}`, me.token),
    404,
    'You cannot follow yourself',
    'self-unfollow',
  )
  for (const verb of ['follow', 'unfollow']) {
    expectError(
      t,
      await post(`/api/users/${verb}/${crypto.randomUUID()}`, me.token),
      404,
      'User not found',
      `${verb} unknown`,
    )
    const mayaId = ((await get('/api/users/maya.lin')).json() as { user: User }).user._id
    expectError(t, await post(`/api/users/${verb}/${mayaId}`), 401, INVALID_TOKEN, `${verb} without a token`)
  }
  t.strictSame(
    expectOk(t, await get(`/api/users/${me.username}`), 200, UserReplySchema).user.following,
    [],
    'nothing changed',
  )
  const mayaId = ((await get('/api/users/maya.lin')).json() as { user: User }).user._id
  const withBody = await post(`/api/users/follow/${mayaId}`, me.token, {
    following: [],
    user: { _id: mayaId },
    extra: 1,
  })
  t.strictSame(
    ids(expectOk(t, withBody, 200, FollowReplySchema, 'follow with a body').user.following),
    [mayaId],
    'the body is ignored',
  )
  t.equal((await post(`/api/users/unfollow/${mayaId}`, me.token, { extra: 1 })).statusCode, 200, 'unfollow with a body')
})

await t.test('GET /api/users/suggestions: not me, not followed, most followed first, limit', async (t) => {
  const me = await signup(api)
  const res = await get('/api/users/suggestions', me.token)
  const { users } = expectOk(t, res, 200, UsersReplySchema, 'suggestions')
  expectNoSecrets(t, res, 'suggestions')
  t.equal(users.length, 5, 'five by default')
  t.notOk(ids(users).includes(me.user._id), 'never me')
  t.ok(
    users.every((user) => user.email === undefined),
    'no email on anyone',
  )
  const counts = users.map((user) => user.followers.length)
  t.strictSame(
    counts,
    [...counts].sort((x, y) => y - x),
    'most followed first',
  )
  t.equal(users[0]?.username, 'maya.lin', 'the most followed seeded user leads')

  const mayaId = users[0]?._id as string
  t.equal((await post(`/api/users/follow/${mayaId}`, me.token)).statusCode, 200)
  const after = expectOk(t, await get('/api/users/suggestions?limit=2', me.token), 200, UsersReplySchema).users
  t.equal(after.length, 2, 'limit is kept')
  t.notOk(ids(after).includes(mayaId), 'someone I follow is no longer suggested')

  const guestSuggestions = expectOk(
    t,
    await get('/api/users/suggestions?limit=100', guest),
    200,
    UsersReplySchema,
  ).users
  const names = guestSuggestions.map((user) => user.username)
  t.ok(
    ['sam.okafor', 'lucia.rossi', 'noah_kim'].every((name) => names.includes(name)),
    'the seeded users guest does not follow',
  )
  t.notOk(
    ['guest', 'maya.lin', 'theo_park'].some((name) => names.includes(name)),
    'not guest nor whom guest follows',
  )

  expectError(t, await get('/api/users/suggestions'), 401, INVALID_TOKEN, 'no token')
  t.equal((await get('/api/users/suggestions?limit=0', me.token)).statusCode, 400, 'limit=0 is a 400')
})

await t.test('bookmarks: add and remove answer 200 { bookmarks } as full posts, newest first', async (t) => {
  const me = await signup(api)
  const [first, second] = (await anyPostId()).slice(3, 5) as [{ _id: string }, { _id: string }]
  const empty = expectOk(t, await get('/api/users/bookmark', me.token), 200, BookmarksReplySchema, 'none yet')
  t.strictSame(empty.bookmarks, [])

  const added = expectOk(t, await post(`/api/users/bookmark/${first._id}`, me.token), 200, BookmarksReplySchema, 'add')
  t.strictSame(ids(added.bookmarks), [first._id])
  const both = expectOk(
    t,
    await post(`/api/users/bookmark/${second._id}`, me.token),
    200,
    BookmarksReplySchema,
    'add again',
  )
  t.strictSame(ids(both.bookmarks), [second._id, first._id], 'newest bookmark first')
  t.ok(
    both.bookmarks.every((bookmark) => bookmark.likes && Array.isArray(bookmark.comments)),
    'full post objects',
  )
  const listed = expectOk(t, await get('/api/users/bookmark', me.token), 200, BookmarksReplySchema, 'list')
  t.strictSame(ids(listed.bookmarks), [second._id, first._id])
  t.strictSame(
    bookmarkedIds(expectOk(t, await get(`/api/users/${me.username}`, me.token), 200, UserReplySchema).user.bookmarks),
    [second._id, first._id],
    'on my own record too, newest first',
  )

  const paged = expectOk(t, await get('/api/users/bookmark?limit=1', me.token), 200, BookmarksReplySchema, 'paged')
  t.strictSame(ids(paged.bookmarks), [second._id])
  t.type(paged.nextCursor, 'string')
  const rest = expectOk(
    t,
    await get(`/api/users/bookmark?limit=1&cursor=${paged.nextCursor}`, me.token),
    200,
    BookmarksReplySchema,
  )
  t.strictSame(ids(rest.bookmarks), [first._id])
  t.equal(rest.nextCursor, null)

  expectError(t, await post(`/api/users/bookmark/${first._id}`, me.token), 400, 'This Post is already bookmarked')
  const removed = expectOk(
    t,
    await post(`/api/users/remove-bookmark/${first._id}`, me.token),
    200,
    BookmarksReplySchema,
    'remove',
  )
  t.strictSame(ids(removed.bookmarks), [second._id])
  expectError(t, await post(`/api/users/remove-bookmark/${first._id}`, me.token), 400, 'Post not bookmarked yet')
  t.strictSame(ids(expectOk(t, await get('/api/users/bookmark', me.token), 200, BookmarksReplySchema).bookmarks), [
    second._id,
  ])
})

await t.test('bookmark errors: unknown post 404, no token 401; others never see my bookmarks', async (t) => {
  const me = await signup(api)
  const unknown = crypto.randomUUID()
  expectError(t, await post(`/api/users/bookmark/${unknown}`, me.token), 404, 'Post not found', 'add unknown')
  expectError(t, await post(`/api/users/remove-bookmark/${unknown}`, me.token), 404, 'Post not found', 'remove unknown')
  const postId = (await anyPostId())[0]?._id as string
  expectError(t, await post(`/api/users/bookmark/${postId}`), 401, INVALID_TOKEN, 'add without a token')
  expectError(t, await post(`/api/users/remove-bookmark/${postId}`), 401, INVALID_TOKEN, 'remove without a token')
  expectError(t, await get('/api/users/bookmark'), 401, INVALID_TOKEN, 'list without a token')

  t.equal((await post(`/api/users/bookmark/${postId}`, me.token)).statusCode, 200)
  const seenByMaya = expectOk(t, await get(`/api/users/${me.username}`, maya), 200, UserReplySchema).user
  t.strictSame(seenByMaya.bookmarks, [], 'hidden from another user')
  const inList = expectOk(t, await get('/api/users', maya), 200, UsersReplySchema).users.find(
    (user) => user._id === me.user._id,
  )
  t.strictSame(inList?.bookmarks, [], 'hidden in the users list too')
  const mayaOwn = expectOk(t, await get('/api/users/bookmark', maya), 200, BookmarksReplySchema).bookmarks
  t.notOk(ids(mayaOwn).includes(postId), "GET /users/bookmark is the caller's own list")
})

await t.test("a user's bookmarks serialise as whole posts, and nothing outside the schema leaves", async (t) => {
  const reader = Fastify()
  t.teardown(() => reader.close())
  const post = { ...expectOk(t, await get('/api/posts?limit=1'), 200, PostsReplySchema).posts[0], secret: 'never sent' }
  const record = {
    ...expectOk(t, await get('/api/users/guest', guest), 200, UserReplySchema).user,
    passwordHash: 'scrypt$never$sent',
  }
  reader.get('/me', { schema: { response: { 200: UserReplySchema } } }, async () => ({
    user: { ...record, bookmarks: [post] },
  }))
  const res = await reader.inject({ method: 'GET', url: '/me' })
  const { user } = expectOk(t, res, 200, UserReplySchema, 'a record with a bookmarked post')
  const { secret: _secret, ...shown } = post
  t.strictSame(user.bookmarks, [shown], 'the bookmark is the whole post')
  t.notOk(res.body.includes('never sent') || res.body.includes('scrypt$'), 'fields outside the schema are dropped')
})
