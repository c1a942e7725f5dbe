import t, { type Test } from 'tap'
import {
  CommentsReplySchema,
  CommentWriteReplySchema,
  PostWriteReplySchema,
  type Comment,
  type Post,
} from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectNoSecrets, expectOk, signup, type SignedUp } from '../helpers/api.js'

const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'
const MINIMAL = { prefer: 'return=minimal' }

const api = await buildApiApp(t)

const get = (url: string) => api.as(undefined, { method: 'GET', url })
const send = (
  method: 'POST' | 'DELETE',
  url: string,
  token?: string,
  payload?: object,
  headers: Record<string, string> = {},
) => api.as(token, { method, url, headers, ...(payload ? { payload } : {}) })
const comments = async (postId: string) =>
  expectOk(t, await get(`/api/comments/${postId}`), 200, CommentsReplySchema).comments

/** A post by `author` with one comment by `commenter`. */
async function thread(author: SignedUp, commenter: SignedUp) {
  const created = await send('POST', '/api/posts', author.token, { content: 'a thread' }, MINIMAL)
  const post = (created.json() as { post: Post }).post
  const added = await send('POST', `/api/comments/add/${post._id}`, commenter.token, { text: 'first!' }, MINIMAL)
  const comment = (added.json() as { post: Post }).post.comments[0] as Comment
  return { postId: post._id, commentId: comment._id }
}

await t.test('GET /api/comments/:postId answers 200 { comments }, oldest first, and pages', async (t) => {
  const { posts } = (await get('/api/posts')).json() as { posts: Post[] }
  const sourdough = posts.find((post) => post.content.startsWith('Sourdough')) as Post
  const res = await get(`/api/comments/${sourdough._id}`)
  const body = expectOk(t, res, 200, CommentsReplySchema)
  expectNoSecrets(t, res, 'GET /api/comments/:postId')
  t.notOk('nextCursor' in body, 'no nextCursor without limit or cursor')
  t.strictSame(
    body.comments.map((comment) => comment.username),
    ['maya.lin', 'lucia.rossi'],
    'oldest first',
  )
  t.match(body.comments[0], {
    firstName: 'Maya',
    lastName: 'Lin',
    text: 'That looks amazing, recipe please!',
    votes: { upvotedBy: [], downvotedBy: [] },
  })

  const first = expectOk(t, await get(`/api/comments/${sourdough._id}?limit=1`), 200, CommentsReplySchema, 'page 1')
  t.strictSame(
    first.comments.map((comment) => comment.username),
    ['maya.lin'],
  )
  t.type(first.nextCursor, 'string')
  const second = expectOk(
    t,
    await get(`/api/comments/${sourdough._id}?limit=1&cursor=${first.nextCursor}`),
    200,
    CommentsReplySchema,
  )
  t.strictSame(
    second.comments.map((comment) => comment.username),
    ['lucia.rossi'],
  )
  t.equal(second.nextCursor, null, 'null at the end')
  expectError(t, await get(`/api/comments/${crypto.randomUUID()}`), 404, 'Post not found')
  expectError(t, await get(`/api/comments/${sourdough._id}?limit=1&cursor=WyJ4Il0`), 400, 'cursor is invalid')
})

/** The full answer of every comment write: every post, the changed post, and that post's comments. */
function expectCommentWrite(t: Test, res: Awaited<ReturnType<typeof send>>, what: string) {
  const body = expectOk(t, res, 201, CommentWriteReplySchema, what)
  t.strictSame(Object.keys(body).sort(), ['comments', 'post', 'posts'], `${what}: { posts, post, comments }`)
  t.strictSame(body.comments, body.post?.comments, `${what}: comments are the post's`)
  t.strictSame(
    body.posts?.find((post) => post._id === body.post?._id),
    body.post,
    `${what}: posts holds the post as it is now`,
  )
  return body
}

await t.test(
  'POST /api/comments/add/:postId answers 201 { posts, post, comments }, or { post } when minimal',
  async (t) => {
    const author = await signup(api)
    const commenter = await signup(api, { firstName: 'Chatty', lastName: 'Cathy' })
    const { postId } = await thread(author, commenter)

    const res = await send('POST', `/api/comments/add/${postId}`, commenter.token, { text: 'second' })
    const body = expectCommentWrite(t, res, 'add')
    expectNoSecrets(t, res, 'add comment')
    t.equal(body.comments?.[1]?.text, 'second', 'comments carries the new one')
    t.match(body.post?.comments[1], {
      username: commenter.username,
      firstName: 'Chatty',
      lastName: 'Cathy',
      text: 'second',
    })
    t.equal(body.posts?.find((post) => post._id === postId)?.comments.length, 2, 'posts carries the comment too')

    const minimal = await send(
      'POST',
      `/api/comments/add/${postId}`,
      author.token,
      { commentData: { text: 'wrapped' } },
      MINIMAL,
    )
    const small = expectOk(t, minimal, 201, PostWriteReplySchema, 'minimal, wrapped')
    t.strictSame(Object.keys(small), ['post'])
    t.equal(small.post?.comments[2]?.text, 'wrapped')
    t.equal(
      (await send('POST', `/api/comments/add/${postId}`, author.token, { text: 'c'.repeat(500) })).statusCode,
      201,
      '500 characters',
    )
    t.strictSame(
      (await comments(postId)).map((comment) => comment.text.slice(0, 7)),
      ['first!', 'second', 'wrapped', 'ccccccc'],
    )
  },
)

await t.test('comment text: 1 to 500 characters, not blank, a string, nothing else', async (t) => {
  const author = await signup(api)
  const { postId } = await thread(author, author)
  const add = (payload: object) => send('POST', `/api/comments/add/${postId}`, author.token, payload)
  for (const [payload, what] of [
    [{ text: '' }, 'empty'],
    [{ text: 'c'.repeat(501) }, '501 characters'],
    [{ text: 123 }, 'a number'],
    [{ text: null }, 'null'],
  ] as const) {
    const res = await add(payload)
    t.equal(res.statusCode, 400, what)
    t.match(res.json(), { errors: [/^text /] }, `${what}: names text`)
    t.equal((res.json() as { errors: string[] }).errors.length, 1, `${what}: one message`)
  }
  expectError(t, await add({ text: '  \n\t ' }), 400, 'text must not be blank')
  expectError(t, await add({}), 400, 'text is required')
  expectError(
    t,
    await send('POST', `/api/comments/add/${crypto.randomUUID()}`, author.token, { text: 'hi' }),
    404,
    'Post not found',
  )
  expectError(
    t,
    await send('POST', `/api/comments/add/${postId}`, undefined, { text: 'hi' }),
    401,
    INVALID_TOKEN,
    'no token',
  )
  t.equal((await comments(postId)).length, 1, 'nothing was added')
})

await t.test('a comment write ignores the fields the server owns or does not know', async (t) => {
  const author = await signup(api)
  const voter = await signup(api)
  const { postId, commentId } = await thread(author, author)
  const planted = {
    _id: commentId,
    text: 'echoed whole',
    username: voter.username,
    votes: { upvotedBy: [{ _id: voter.user._id }], downvotedBy: [] },
    createdAt: '2000-01-01T00:00:00.000Z',
  }
  const res = await send('POST', `/api/comments/add/${postId}`, author.token, { commentData: planted }, MINIMAL)
  const added = expectOk(t, res, 201, PostWriteReplySchema, 'add with extras').post?.comments[1]
  t.not(added?._id, commentId, 'a fresh id')
  t.match(
    added,
    { text: 'echoed whole', username: author.username, votes: { upvotedBy: [], downvotedBy: [] } },
    'only the text is taken',
  )
  t.not(added?.createdAt, planted.createdAt, 'the server dates it')
  const edited = await send(
    'POST',
    `/api/comments/edit/${postId}/${commentId}`,
    author.token,
    { ...planted, text: 'edited' },
    MINIMAL,
  )
  t.match(expectOk(t, edited, 201, PostWriteReplySchema, 'edit with extras').post?.comments[0], {
    text: 'edited',
    votes: { upvotedBy: [] },
  })
  t.strictSame(
    (await comments(postId)).map((comment) => comment.votes.upvotedBy),
    [[], []],
    'no vote was stored',
  )
})

await t.test('POST /api/comments/edit/:postId/:commentId: the comment author only', async (t) => {
  const author = await signup(api)
  const commenter = await signup(api)
  const { postId, commentId } = await thread(author, commenter)
  const editAs = (who: SignedUp | undefined, text: unknown, ids = `${postId}/${commentId}`, headers = {}) =>
    send('POST', `/api/comments/edit/${ids}`, who?.token, { text }, headers)

  const res = await editAs(commenter, 'edited')
  const body = expectCommentWrite(t, res, 'edit')
  t.match(body.comments?.[0], { _id: commentId, text: 'edited', username: commenter.username })
  const minimal = await editAs(commenter, 'edited again', undefined, MINIMAL)
  t.strictSame(Object.keys(expectOk(t, minimal, 201, PostWriteReplySchema, 'minimal')), ['post'])

  const notYours = "Cannot edit a comment doesn't belong to the User."
  expectError(t, await editAs(author, 'by the post author'), 400, notYours, 'by the post author')
  expectError(t, await editAs(await signup(api), 'by a stranger'), 400, notYours, 'by a stranger')
  t.equal((await comments(postId))[0]?.text, 'edited again', 'unchanged by refused edits')
  expectError(t, await editAs(commenter, 'x', `${postId}/${crypto.randomUUID()}`), 404, 'Comment not found')
  expectError(t, await editAs(commenter, 'x', `${crypto.randomUUID()}/${commentId}`), 404, 'Post not found')
  expectError(t, await editAs(commenter, ' '), 400, 'text must not be blank')
  expectError(t, await editAs(commenter, 5), 400, 'text must be string')
  expectError(t, await editAs(undefined, 'x'), 401, INVALID_TOKEN, 'no token')
})

await t.test('comment delete: by the comment author or the post author, refused for others', async (t) => {
  const author = await signup(api)
  const commenter = await signup(api)
  const stranger = await signup(api)
  const { postId, commentId } = await thread(author, commenter)
  const second = (
    (await send('POST', `/api/comments/add/${postId}`, commenter.token, { text: 'second' }, MINIMAL)).json() as {
      post: Post
    }
  ).post.comments[1]?._id as string
  const third = (
    (await send('POST', `/api/comments/add/${postId}`, stranger.token, { text: 'third' }, MINIMAL)).json() as {
      post: Post
    }
  ).post.comments[2]?._id as string

  const refused = await send('POST', `/api/comments/delete/${postId}/${commentId}`, stranger.token)
  expectError(t, refused, 400, "Cannot delete a comment doesn't belong to the User.", 'by a stranger')
  t.equal((await comments(postId)).length, 3, 'still there')

  const byCommenter = await send('POST', `/api/comments/delete/${postId}/${commentId}`, commenter.token)
  const body = expectCommentWrite(t, byCommenter, 'by the comment author, POST')
  t.notOk(
    body.comments?.some((comment) => comment._id === commentId),
    'gone from the comments',
  )

  const byAuthor = await send('DELETE', `/api/comments/delete/${postId}/${second}`, author.token, undefined, MINIMAL)
  const small = expectOk(t, byAuthor, 201, PostWriteReplySchema, 'by the post author, DELETE, minimal')
  t.strictSame(Object.keys(small), ['post'], 'only { post }')
  t.strictSame(
    (await comments(postId)).map((comment) => comment._id),
    [third],
  )

  expectError(
    t,
    await send('POST', `/api/comments/delete/${postId}/${commentId}`, commenter.token),
    404,
    'Comment not found',
    'again',
  )
  expectError(
    t,
    await send('DELETE', `/api/comments/delete/${crypto.randomUUID()}/${third}`, author.token),
    404,
    'Post not found',
  )
  expectError(t, await send('POST', `/api/comments/delete/${postId}/${third}`), 401, INVALID_TOKEN, 'no token')
  const withBody = await send('POST', `/api/comments/delete/${postId}/${third}`, author.token, { why: 'spam' }, MINIMAL)
  t.strictSame(expectOk(t, withBody, 201, PostWriteReplySchema, 'a body is ignored').post?.comments, [])
})

await t.test(
  'comment votes answer 201 { posts, post, comments }, or { post } when minimal; up and down move the voter',
  async (t) => {
    const author = await signup(api)
    const voter = await signup(api)
    const { postId, commentId } = await thread(author, author)
    const vote = (
      direction: 'upvote' | 'downvote',
      who: SignedUp | null = voter,
      ids = `${postId}/${commentId}`,
      headers = {},
    ) => send('POST', `/api/comments/${direction}/${ids}`, who?.token, undefined, headers)
    const votesOf = (comments: readonly Comment[] = []) => {
      const { upvotedBy, downvotedBy } = comments.find((comment) => comment._id === commentId)?.votes ?? {}
      return { up: upvotedBy?.map((user) => user.username), down: downvotedBy?.map((user) => user.username) }
    }

    const up = await vote('upvote')
    t.strictSame(votesOf(expectCommentWrite(t, up, 'upvote').comments), { up: [voter.username], down: [] })
    expectNoSecrets(t, up, 'upvote')
    expectError(t, await vote('upvote'), 400, 'Cannot upvote a post that is already upvoted.')
    const down = await vote('downvote', voter, undefined, MINIMAL)
    const small = expectOk(t, down, 201, PostWriteReplySchema, 'minimal downvote')
    t.strictSame(Object.keys(small), ['post'], 'minimal: only { post }')
    t.strictSame(votesOf(small.post?.comments), { up: [], down: [voter.username] })
    expectError(t, await vote('downvote'), 400, 'Cannot downvote a post that is already downvoted.')
    t.strictSame(votesOf(expectCommentWrite(t, await vote('upvote', author), 'author upvotes').comments), {
      up: [author.username],
      down: [voter.username],
    })
    t.strictSame(votesOf(await comments(postId)), { up: [author.username], down: [voter.username] }, 'kept')

    for (const direction of ['upvote', 'downvote'] as const) {
      expectError(
        t,
        await vote(direction, voter, `${postId}/${crypto.randomUUID()}`),
        404,
        'Comment not found',
        direction,
      )
      expectError(
        t,
        await vote(direction, voter, `${crypto.randomUUID()}/${commentId}`),
        404,
        'Post not found',
        direction,
      )
      expectError(t, await vote(direction, null), 401, INVALID_TOKEN, `${direction} without a token`)
    }
  },
)
