import type { LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { PRESET_AVATARS, defaultAvatarOf } from '../../common/avatars.js'
import {
  BookmarksReplySchema,
  FeedReplySchema,
  PostReplySchema,
  PostsReplySchema,
  PostWriteReplySchema,
  type Post,
} from '../../server/schemas/posts.js'
import { UserReplySchema } from '../../server/schemas/users.js'
import {
  buildApiApp,
  expectError,
  expectNoSecrets,
  expectOk,
  IMAGE_BYTES,
  multipart,
  signup,
  storedText,
  type SignedUp,
} from '../helpers/api.js'

const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'
const MINIMAL = { prefer: 'return=minimal' }

const api = await buildApiApp(t)
const { app } = api

const get = (url: string, token?: string) => api.as(token, { method: 'GET', url })
const send = (
  method: 'POST' | 'DELETE',
  url: string,
  token?: string,
  payload?: object,
  headers: Record<string, string> = {},
) => api.as(token, { method, url, headers, ...(payload ? { payload } : {}) })
const create = (token: string, payload: object, headers: Record<string, string> = {}) =>
  send('POST', '/api/posts', token, payload, headers)
const ids = (posts: readonly { _id: string }[]) => posts.map((post) => post._id)
const allPosts = async () => expectOk(t, await get('/api/posts'), 200, PostsReplySchema).posts

/** A new post by `author`, through the API. */
async function newPost(author: SignedUp, content = `post by ${author.username}`): Promise<Post> {
  const res = await create(author.token, { content }, MINIMAL)
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}

/** likeCount always equals likedBy.length, in the answer and in what is stored. */
async function expectLikes(
  t: Test,
  res: LightMyRequestResponse,
  likedBy: string[],
  dislikedBy: string[],
  step: string,
) {
  const { post } = expectOk(t, res, 201, PostWriteReplySchema, step)
  const stored = expectOk(t, await get(`/api/posts/${post?._id}`), 200, PostReplySchema).post
  for (const [where, likes] of [
    ['answer', post?.likes],
    ['stored', stored.likes],
  ] as const) {
    t.equal(likes?.likeCount, likes?.likedBy.length, `${step}, ${where}: likeCount == likedBy.length`)
    t.strictSame(
      likes?.likedBy.map((user) => user.username),
      likedBy,
      `${step}, ${where}: likedBy`,
    )
    t.strictSame(
      likes?.dislikedBy.map((user) => user.username),
      dislikedBy,
      `${step}, ${where}: dislikedBy`,
    )
  }
}

await t.test(
  'GET /api/posts answers 200 { posts }: the 13 seeded posts, newest first, each in the post shape of the API',
  async (t) => {
    const res = await get('/api/posts')
    const { posts } = expectOk(t, res, 200, PostsReplySchema, 'GET /api/posts')
    expectNoSecrets(t, res, 'GET /api/posts')
    t.equal(posts.length, 13)
    t.notOk('nextCursor' in res.json(), 'no nextCursor without limit or cursor')
    const times = posts.map((post) => Date.parse(post.createdAt))
    t.strictSame(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    )
    t.ok(
      posts.every((post) => post.id === post._id),
      'id equals _id',
    )
    t.ok(
      posts.every((post) => post.likes.likeCount === post.likes.likedBy.length),
      'likeCount == likedBy.length',
    )
    t.notOk(res.body.includes('mediaURL'), 'the legacy mediaURL spelling is normalised away')
    const images = posts.filter((post) => post.mediaUrl !== '')
    t.equal(images.length, 3, 'three seeded posts carry an image')
    t.ok(images.every((post) => /^\/media\/[0-9a-f-]{36}\.png$/.test(post.mediaUrl) && post.type === 'image'))
    const sketch = posts.find((post) => post.content.startsWith("Today's sketch"))
    t.match(
      sketch,
      { username: 'lucia.rossi', mediaUrl: /^\/media\//, type: 'image' },
      'the seeded mediaURL post reads as mediaUrl',
    )
    const media = await app.inject({ method: 'GET', url: sketch?.mediaUrl as string })
    t.equal(media.statusCode, 200, 'its image is served')
  },
)

await t.test('GET /api/posts pages with limit and cursor', async (t) => {
  const all = await allPosts()
  const seen: string[] = []
  const sizes: number[] = []
  let cursor: string | null | undefined
  for (let page = 0; page < 10 && cursor !== null; page++) {
    const body = expectOk(
      t,
      await get(`/api/posts?limit=5${cursor ? `&cursor=${cursor}` : ''}`),
      200,
      PostsReplySchema,
      `page ${page + 1}`,
    )
    t.ok('nextCursor' in body, 'nextCursor is present when paging')
    seen.push(...ids(body.posts))
    sizes.push(body.posts.length)
    cursor = body.nextCursor
  }
  t.strictSame(sizes, [5, 5, 3])
  t.equal(cursor, null, 'null at the end')
  t.strictSame(seen, ids(all), 'the pages are the whole list in order')
  for (const query of ['limit=0', 'limit=101', 'limit=x'])
    t.equal((await get(`/api/posts?${query}`)).statusCode, 400, query)
  expectError(t, await get('/api/posts?limit=5&cursor=nonsense'), 400, 'cursor is invalid')
})

await t.test('GET /api/posts/:postId answers 200 { post }; unknown 404', async (t) => {
  const [first] = await allPosts()
  const res = await get(`/api/posts/${first?._id}`)
  t.strictSame(expectOk(t, res, 200, PostReplySchema).post, first)
  expectNoSecrets(t, res, 'GET /api/posts/:postId')
  expectError(t, await get(`/api/posts/${crypto.randomUUID()}`), 404, 'Post not found')
  t.equal((await get('/api/posts/not.an.id')).statusCode, 400, 'an id with other characters is a 400')
})

await t.test('GET /api/posts/user/:username answers 200 { posts } by that user, and pages', async (t) => {
  const res = await get('/api/posts/user/maya.lin')
  const { posts } = expectOk(t, res, 200, PostsReplySchema)
  expectNoSecrets(t, res, 'GET /api/posts/user/:username')
  t.equal(posts.length, 3)
  t.ok(posts.every((post) => post.username === 'maya.lin' && post.firstName === 'Maya'))
  const first = expectOk(t, await get('/api/posts/user/maya.lin?limit=2'), 200, PostsReplySchema)
  t.strictSame(ids(first.posts), ids(posts).slice(0, 2))
  const second = expectOk(
    t,
    await get(`/api/posts/user/maya.lin?limit=2&cursor=${first.nextCursor}`),
    200,
    PostsReplySchema,
  )
  t.strictSame(ids(second.posts), ids(posts).slice(2))
  t.equal(second.nextCursor, null)
  expectError(t, await get('/api/posts/user/nobody_at_all'), 404, 'User not found')
  const empty = await signup(api)
  t.strictSame(
    expectOk(t, await get(`/api/posts/user/${empty.username}`), 200, PostsReplySchema).posts,
    [],
    'no posts yet',
  )
})

await t.test('POST /api/posts answers 201 { posts, post }, or { post } with Prefer: return=minimal', async (t) => {
  const me = await signup(api, { firstName: 'Poster', lastName: 'Person' })
  const res = await create(me.token, { content: 'Hello from a test' })
  const body = expectOk(t, res, 201, PostWriteReplySchema, 'create')
  expectNoSecrets(t, res, 'POST /api/posts')
  t.match(body.post, {
    username: me.username,
    firstName: 'Poster',
    lastName: 'Person',
    avatarURL: defaultAvatarOf(me.username, PRESET_AVATARS),
    content: 'Hello from a test',
    mediaUrl: '',
    type: '',
    likes: { likeCount: 0, likedBy: [], dislikedBy: [] },
    comments: [],
  })
  t.equal(body.post?.id, body.post?._id)
  t.equal(body.posts?.[0]?._id, body.post?._id, 'posts is every post, the new one first')
  t.equal(body.posts?.length, (await allPosts()).length, 'posts is every post')

  const minimal = await create(me.token, { content: 'minimal' }, MINIMAL)
  const small = expectOk(t, minimal, 201, PostWriteReplySchema, 'minimal')
  t.strictSame(Object.keys(small), ['post'], 'only { post }')
  t.equal(small.post?.content, 'minimal')
  t.equal(minimal.headers['preference-applied'], 'return=minimal')

  const wrapped = await create(
    me.token,
    { postData: { content: 'wrapped', firstName: 'Ignored', lastName: 'Names' } },
    MINIMAL,
  )
  t.match(expectOk(t, wrapped, 201, PostWriteReplySchema, 'wrapped').post, {
    content: 'wrapped',
    firstName: 'Poster',
    lastName: 'Person',
  })
  const image = await create(me.token, { content: '', mediaUrl: 'https://images.example.com/a.jpg' }, MINIMAL)
  t.match(expectOk(t, image, 201, PostWriteReplySchema, 'media only').post, {
    mediaUrl: 'https://images.example.com/a.jpg',
    type: 'image',
  })
  const longest = await create(me.token, { content: 'x'.repeat(500) }, MINIMAL)
  t.equal(longest.statusCode, 201, '500 characters')
})

await t.test('POST /api/posts refusals: length, emptiness, media URLs, types, no token', async (t) => {
  const me = await signup(api)
  const before = (await allPosts()).length
  const fieldError = async (payload: object, field: string, what: string) => {
    const res = await create(me.token, payload)
    t.equal(res.statusCode, 400, what)
    t.strictSame((res.json() as { errors: string[] }).errors.length, 1, `${what}: one message`)
    t.match(res.json(), { errors: [new RegExp(`^${field} `)] }, `${what}: names ${field}`)
  }
  await fieldError({ content: 'x'.repeat(501) }, 'content', '501 characters')
  await fieldError({ content: 123 }, 'content', 'a number as content')
  await fieldError({ content: 'ok', type: 'video' }, 'type', 'an unknown type')
  t.match((await create(me.token, { content: 'ok', type: 'video' })).json(), {
    errors: ['type must be one of "image", ""'],
  })
  await fieldError({ content: 'ok', image: 42 }, 'image', 'a number as the image alias')
  await fieldError({ content: 'ok', imageUrl: ['a'] }, 'imageUrl', 'an array as the imageUrl alias')
  for (const payload of [{}, { content: '' }, { content: '   \n ' }]) {
    expectError(t, await create(me.token, payload), 400, 'A post needs content or media', JSON.stringify(payload))
  }
  const badMedia = 'mediaUrl must be an uploaded /media/ file or an https URL'
  const refused = [
    'http://example.com/a.png',
    'javascript:alert(1)',
    'data:image/png;base64,AA',
    '/media/../../etc/passwd',
    '//cdn.example.com/a.png',
  ]
  for (const mediaUrl of refused) {
    expectError(t, await create(me.token, { content: 'with media', mediaUrl }), 400, badMedia, mediaUrl)
  }
  expectError(t, await create('', { content: 'anonymous' }), 401, INVALID_TOKEN, 'no token')
  t.equal((await allPosts()).length, before, 'no refused post was stored')
})

await t.test(
  'POST /api/posts ignores the fields the server owns or does not know; image and imageUrl are mediaUrl',
  async (t) => {
    const me = await signup(api)
    const other = await newPost(me, 'an id to claim')
    const planted = {
      content: 'hi',
      _id: other._id,
      id: 'planted-id',
      username: 'guest',
      likes: { likeCount: 99, likedBy: [{ _id: 'x', username: 'guest' }], dislikedBy: [] },
      comments: [{ _id: 'planted-comment', text: 'planted' }],
      createdAt: '2000-01-01T00:00:00.000Z',
      authorId: 'planted-author',
      bookmarked: true,
    }
    const { post } = expectOk(
      t,
      await create(me.token, { postData: planted }, MINIMAL),
      201,
      PostWriteReplySchema,
      'create with extras',
    )
    const stored = expectOk(t, await get(`/api/posts/${post?._id}`), 200, PostReplySchema).post
    t.not(stored._id, other._id, 'a fresh id')
    t.equal(stored.id, stored._id, 'id is _id')
    t.equal(stored.username, me.username, 'the author is the caller')
    t.strictSame(stored.likes, { likeCount: 0, likedBy: [], dislikedBy: [] }, 'no likes')
    t.strictSame(stored.comments, [], 'no comments')
    t.not(stored.createdAt, planted.createdAt, 'the server dates it')
    t.equal(
      expectOk(t, await get(`/api/posts/${other._id}`), 200, PostReplySchema).post.content,
      'an id to claim',
      'the other post is untouched',
    )
    const text = await storedText(api)
    for (const marker of ['planted-id', 'planted-comment', 'planted-author', 'bookmarked', '2000-01-01'])
      t.notOk(text.includes(marker), `${marker} not stored`)

    const url = 'https://images.example.com/b.jpg'
    for (const alias of ['image', 'imageUrl']) {
      const res = await create(me.token, { postData: { content: alias, [alias]: url } }, MINIMAL)
      t.match(
        expectOk(t, res, 201, PostWriteReplySchema, alias).post,
        { mediaUrl: url, type: 'image' },
        `${alias} is read as mediaUrl`,
      )
    }
    const emptyImage = await create(me.token, { postData: { content: 'no picture', image: '' } }, MINIMAL)
    t.match(
      expectOk(t, emptyImage, 201, PostWriteReplySchema).post,
      { mediaUrl: '', type: '' },
      'an empty image is no media',
    )
    const both = await create(me.token, { content: 'both', mediaUrl: '', image: url }, MINIMAL)
    t.equal(expectOk(t, both, 201, PostWriteReplySchema).post?.mediaUrl, '', 'mediaUrl wins over image')
    expectError(
      t,
      await create(me.token, { content: 'x', image: 'javascript:alert(1)' }),
      400,
      'mediaUrl must be an uploaded /media/ file or an https URL',
      'an alias is checked as its field',
    )
  },
)

await t.test('an edited post says when it was edited; a like or a refused edit does not make it so', async (t) => {
  const author = await signup(api)
  const other = await signup(api)
  const post = await newPost(author, 'as first sent')
  t.equal(post.editedAt, undefined, 'a new post was never edited')
  const liked = expectOk(t, await send('POST', `/api/posts/like/${post._id}`, other.token), 201, PostWriteReplySchema)
  t.equal(liked.post?.editedAt, undefined, 'a like is no edit, though it moves updatedAt')
  await send('POST', `/api/posts/edit/${post._id}`, other.token, { content: 'hijacked' })
  t.equal(
    expectOk(t, await get(`/api/posts/${post._id}`), 200, PostReplySchema).post.editedAt,
    undefined,
    'nor a refused edit',
  )

  const edit = await send('POST', `/api/posts/edit/${post._id}`, author.token, { content: 'as edited' }, MINIMAL)
  const edited = expectOk(t, edit, 201, PostWriteReplySchema, 'edit').post
  t.ok(edited?.editedAt, 'the edit answers with editedAt')
  t.equal(edited?.editedAt, edited?.updatedAt, 'at the moment of the edit')
  const read = expectOk(t, await get(`/api/posts/${post._id}`), 200, PostReplySchema).post
  t.equal(read.editedAt, edited?.editedAt, 'kept')
  await send('POST', `/api/posts/dislike/${post._id}`, other.token)
  const later = expectOk(t, await get(`/api/posts/${post._id}`), 200, PostReplySchema).post
  t.equal(later.editedAt, edited?.editedAt, 'and not moved by a later unlike')
  const listed = expectOk(t, await get(`/api/posts/user/${author.username}?limit=5&compact=1`), 200, FeedReplySchema)
  t.equal(listed.posts[0]?.editedAt, edited?.editedAt, 'compact lists carry it too')
})

await t.test('POST /api/posts/edit/:id: the author only', async (t) => {
  const author = await signup(api)
  const other = await signup(api)
  const original = await newPost(author, 'first version')

  const res = await send('POST', `/api/posts/edit/${original._id}`, author.token, { content: 'second version' })
  const body = expectOk(t, res, 201, PostWriteReplySchema, 'edit')
  t.match(body.post, { _id: original._id, content: 'second version', createdAt: original.createdAt })
  t.ok(Date.parse(body.post?.updatedAt ?? '') >= Date.parse(original.updatedAt), 'updatedAt moves on')
  t.equal(body.posts?.find((post) => post._id === original._id)?.content, 'second version', 'posts carries the edit')
  const minimal = await send(
    'POST',
    `/api/posts/edit/${original._id}`,
    author.token,
    { postData: { content: 'third' } },
    MINIMAL,
  )
  t.strictSame(Object.keys(expectOk(t, minimal, 201, PostWriteReplySchema, 'minimal')), ['post'])

  const refused = await send('POST', `/api/posts/edit/${original._id}`, other.token, { content: 'hijacked' })
  expectError(t, refused, 400, "Cannot edit a Post doesn't belong to the logged in User.", 'edit by another user')
  t.equal(expectOk(t, await get(`/api/posts/${original._id}`), 200, PostReplySchema).post.content, 'third', 'unchanged')
  expectError(
    t,
    await send('POST', `/api/posts/edit/${crypto.randomUUID()}`, author.token, { content: 'x' }),
    404,
    'Post not found',
  )
  expectError(
    t,
    await send('POST', `/api/posts/edit/${original._id}`, author.token, { content: ' ' }),
    400,
    'A post needs content or media',
  )
  expectError(
    t,
    await send('POST', `/api/posts/edit/${original._id}`, undefined, { content: 'x' }),
    401,
    INVALID_TOKEN,
    'no token',
  )
})

await t.test(
  'DELETE /api/posts/:id: the author only; answers { posts } or {} and leaves every bookmark list',
  async (t) => {
    const author = await signup(api)
    const other = await signup(api)
    const reader = await signup(api)
    const [doomed, minimalDoomed] = [await newPost(author, 'to delete'), await newPost(author, 'to delete quietly')]
    t.equal(
      (await send('POST', `/api/users/bookmark/${doomed._id}`, reader.token)).statusCode,
      200,
      'a reader bookmarks it',
    )
    t.equal(
      (await send('POST', `/api/users/bookmark/${doomed._id}`, author.token)).statusCode,
      200,
      'so does the author',
    )

    const refused = await send('DELETE', `/api/posts/${doomed._id}`, other.token)
    expectError(t, refused, 400, "Cannot delete a Post doesn't belong to the logged in User.", 'delete by another user')
    t.equal((await get(`/api/posts/${doomed._id}`)).statusCode, 200, 'still there')

    const res = await send('DELETE', `/api/posts/${doomed._id}`, author.token)
    const body = expectOk(t, res, 201, PostWriteReplySchema, 'delete')
    t.notOk('post' in body, 'no post after a delete')
    t.notOk(ids(body.posts ?? []).includes(doomed._id), 'posts no longer holds it')
    expectError(t, await get(`/api/posts/${doomed._id}`), 404, 'Post not found', 'gone')
    expectError(
      t,
      await send('DELETE', `/api/posts/${doomed._id}`, author.token),
      404,
      'Post not found',
      'delete again',
    )

    for (const who of [reader, author]) {
      const list = expectOk(t, await get('/api/users/bookmark', who.token), 200, BookmarksReplySchema).bookmarks
      t.notOk(ids(list).includes(doomed._id), `gone from ${who === reader ? "the reader's" : "the author's"} bookmarks`)
      const record = expectOk(t, await get(`/api/users/${who.username}`, who.token), 200, UserReplySchema).user
      t.strictSame(record.bookmarks, [], 'and from the stored bookmark ids')
    }
    expectError(t, await send('POST', `/api/users/remove-bookmark/${doomed._id}`, reader.token), 404, 'Post not found')

    const minimal = await send('DELETE', `/api/posts/${minimalDoomed._id}`, author.token, undefined, MINIMAL)
    t.equal(minimal.statusCode, 201)
    t.strictSame(minimal.json(), {}, '{} with Prefer: return=minimal')
    expectError(t, await send('DELETE', `/api/posts/${minimalDoomed._id}`), 401, INVALID_TOKEN, 'no token')
  },
)

await t.test('like and dislike: state, errors, and likeCount == likedBy.length after each step', async (t) => {
  const author = await signup(api)
  const b = await signup(api)
  const c = await signup(api)
  const { _id: id } = await newPost(author)
  const like = (who: SignedUp, headers = {}) => send('POST', `/api/posts/like/${id}`, who.token, undefined, headers)
  const dislike = (who: SignedUp) => send('POST', `/api/posts/dislike/${id}`, who.token)

  expectError(t, await dislike(b), 400, 'Cannot decrement like less than 0.', 'dislike at zero')
  await expectLikes(t, await like(b), [b.username], [], 'b likes')
  expectError(t, await like(b), 400, 'Cannot like a post that is already liked.', 'b likes again')
  expectError(t, await dislike(c), 400, 'Cannot dislike a post that is already disliked.', 'c dislikes without a like')
  await expectLikes(t, await like(c), [b.username, c.username], [], 'c likes')
  await expectLikes(t, await dislike(b), [c.username], [b.username], 'b takes the like back')
  expectError(t, await dislike(b), 400, 'Cannot dislike a post that is already disliked.', 'b dislikes again')
  await expectLikes(t, await dislike(c), [], [b.username, c.username], 'c takes the like back')
  expectError(t, await dislike(c), 400, 'Cannot decrement like less than 0.', 'c dislikes at zero')
  await expectLikes(t, await like(b), [b.username], [c.username], 'b likes again: out of dislikedBy')
  await expectLikes(
    t,
    await like(author),
    [b.username, author.username],
    [c.username],
    'the author may like their own post',
  )

  const minimal = await like(c, MINIMAL)
  t.strictSame(Object.keys(expectOk(t, minimal, 201, PostWriteReplySchema, 'minimal like')), ['post'])
  const full = await send('POST', `/api/posts/dislike/${id}`, c.token)
  t.ok(Array.isArray(expectOk(t, full, 201, PostWriteReplySchema, 'full dislike').posts), 'without Prefer, every post')
  expectNoSecrets(t, full, 'like reply')

  const unknown = crypto.randomUUID()
  expectError(t, await send('POST', `/api/posts/like/${unknown}`, b.token), 404, 'Post not found', 'like unknown')
  expectError(t, await send('POST', `/api/posts/dislike/${unknown}`, b.token), 404, 'Post not found', 'dislike unknown')
  expectError(t, await send('POST', `/api/posts/like/${id}`), 401, INVALID_TOKEN, 'like without a token')
  expectError(t, await send('POST', `/api/posts/dislike/${id}`), 401, INVALID_TOKEN, 'dislike without a token')
  const unliked = await newPost(author, 'liked with a body')
  const withBody = await send(
    'POST',
    `/api/posts/like/${unliked._id}`,
    b.token,
    { action: 'like', likeCount: 5 },
    MINIMAL,
  )
  t.strictSame(
    expectOk(t, withBody, 201, PostWriteReplySchema, 'like with a body').post?.likes.likeCount,
    1,
    'the body is ignored',
  )
})

await t.test("a post shows its author's current name and avatar, and so do likes and comments", async (t) => {
  const author = await signup(api, { firstName: 'Old', lastName: 'Name' })
  const mine = await newPost(author)
  const theirs = (await allPosts()).find((post) => post.username === 'maya.lin') as Post
  t.equal((await send('POST', `/api/posts/like/${theirs._id}`, author.token)).statusCode, 201)
  t.equal((await send('POST', `/api/comments/add/${theirs._id}`, author.token, { text: 'a comment' })).statusCode, 201)

  const profile = { firstName: 'New', lastName: 'Surname', avatarURL: '/avatars/avatar-2.svg' }
  t.equal((await send('POST', '/api/users/edit', author.token, profile)).statusCode, 201)
  t.match(expectOk(t, await get(`/api/posts/${mine._id}`), 200, PostReplySchema).post, profile, 'the post')
  const after = expectOk(t, await get(`/api/posts/${theirs._id}`), 200, PostReplySchema).post
  t.match(
    after.likes.likedBy.find((user) => user.username === author.username),
    profile,
    'the like',
  )
  t.match(
    after.comments.find((comment) => comment.username === author.username),
    profile,
    'the comment',
  )
  const listed = expectOk(t, await get(`/api/posts/user/${author.username}`), 200, PostsReplySchema).posts
  t.match(listed[0], profile, 'the list')
})

await t.test("an image post carries its author's description and the stored image's size", async (t) => {
  const me = await signup(api)
  const uploaded = await api.as(me.token, {
    method: 'POST',
    url: '/api/media',
    ...multipart('file', 'a.png', 'image/png', IMAGE_BYTES.png),
  })
  const { url, width, height } = uploaded.json() as { url: string; width: number; height: number }
  const created = expectOk(
    t,
    await create(me.token, { content: '', mediaUrl: url, mediaAlt: 'a gradient at dusk' }),
    201,
    PostWriteReplySchema,
  ).post as Post
  t.match(created, { mediaUrl: url, mediaAlt: 'a gradient at dusk', mediaWidth: width, mediaHeight: height })
  t.match(expectOk(t, await get(`/api/posts/${created._id}`), 200, PostReplySchema).post, {
    mediaAlt: 'a gradient at dusk',
    mediaWidth: width,
  })

  const textOnly = await newPost(me, 'no image here')
  t.notOk(
    'mediaAlt' in textOnly || 'mediaWidth' in textOnly || 'mediaHeight' in textOnly,
    'a post without an image has none of them',
  )
  const https = expectOk(
    t,
    await create(me.token, { mediaUrl: 'https://example.com/cat.png', mediaAlt: 'a cat' }),
    201,
    PostWriteReplySchema,
  ).post
  t.match(https, { mediaAlt: 'a cat' })
  t.notOk(https && ('mediaWidth' in https || 'mediaHeight' in https), 'the size of an image elsewhere is unknown')

  expectError(
    t,
    await create(me.token, { content: 'words', mediaAlt: 'nothing to describe' }),
    400,
    'mediaAlt needs an image: a post without mediaUrl cannot carry it',
  )
  t.equal(
    (await create(me.token, { mediaUrl: url, mediaAlt: 'x'.repeat(1001) })).statusCode,
    400,
    'at most 1,000 characters',
  )
  t.equal((await create(me.token, { mediaUrl: url, mediaAlt: 42 })).statusCode, 400, 'text only')

  const edit = (payload: object) => send('POST', `/api/posts/edit/${created._id}`, me.token, payload, MINIMAL)
  const kept = expectOk(t, await edit({ content: 'now with words' }), 201, PostWriteReplySchema).post
  t.match(
    kept,
    { mediaAlt: 'a gradient at dusk', mediaWidth: width },
    'an edit of the text keeps the image and its description',
  )
  const swapped = expectOk(t, await edit({ mediaUrl: 'https://example.com/other.png' }), 201, PostWriteReplySchema).post
  t.notOk(
    swapped && ('mediaAlt' in swapped || 'mediaWidth' in swapped),
    "a new image starts without the old one's description and size",
  )
  const removed = expectOk(t, await edit({ mediaUrl: '', mediaAlt: '' }), 201, PostWriteReplySchema).post
  t.match(removed, { mediaUrl: '', type: '' })
  t.notOk(removed && 'mediaAlt' in removed, 'no image, no description')
})

await t.test('the seeded image posts carry the size of their images', async (t) => {
  const fresh = await buildApiApp(t)
  const seeded = expectOk(t, await fresh.app.inject({ method: 'GET', url: '/api/posts' }), 200, PostsReplySchema).posts
  const withImages = seeded.filter((post) => post.mediaUrl !== '')
  t.ok(withImages.length > 0, 'the seed has image posts')
  for (const post of withImages) t.match(post, { mediaWidth: 800, mediaHeight: 450 }, `${post._id} is 800 × 450`)
})
