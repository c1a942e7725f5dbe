import type { InjectOptions } from 'fastify'
import t from 'tap'
import {
  BookmarksReplySchema,
  CommentWriteReplySchema,
  PostsReplySchema,
  PostWriteReplySchema,
  type Post,
} from '../../server/schemas/posts.js'
import { AuthSignupReplySchema, FollowReplySchema, UserReplySchema, type User } from '../../server/schemas/users.js'
import { expectOk, storedText } from '../helpers/api.js'
import { buildSeededApp } from '../helpers/seeded.js'

/**
 * The requests that clients written against the original in-browser mock send, as they send them,
 * through one user's journey. Each answer must be what such a client reads (the mock's status and
 * envelope, `posts` after every post and comment write), and what is stored must be only what Chirp allows.
 */
const api = await buildSeededApp(t, { config: { rateLimit: false } })
const { app } = api

type Method = 'GET' | 'POST' | 'DELETE'

/** As axios sends a call: JSON with its content type, even when there is no body, and the raw token. */
function axios(method: Method, url: string, token?: string, data?: unknown) {
  const headers: InjectOptions['headers'] = {
    'content-type': 'application/json',
    ...(token ? { authorization: token } : {}),
  }
  return app.inject({ method, url, headers, ...(data === undefined ? {} : { payload: JSON.stringify(data) }) })
}

/**
 * As `fetch(url, { method, body: JSON.stringify(data), headers: { authorization } })` sends it: a string
 * body with no content type of the caller's, which fetch labels text/plain.
 */
function fetchText(method: Method, url: string, token: string, data: unknown) {
  const headers = { authorization: token, 'content-type': 'text/plain;charset=UTF-8' }
  return app.inject({ method, url, headers, payload: JSON.stringify(data) })
}

/** Every post, as a mock client reads it after a write. */
const postIn = (posts: readonly Post[] | undefined, id: string) => posts?.find((post) => post._id === id)

const PASSWORD = 'mock-client-pw'
const PLANTED_PASSWORD = 'planted-password'
const PLANTED_COUNT = 424242
const PLANTED_DATE = '2000-01-01T00:00:00.000Z'
const IMAGE = 'https://images.example.com/cat.jpg'

let token = ''
let me: User
let postId = ''
let commentId = ''

await t.test('sign up with confirmPassword, at a path with a trailing slash', async (t) => {
  const res = await axios('POST', '/api/auth/signup/', undefined, {
    firstName: 'Mock',
    lastName: 'Client',
    email: 'mock@example.com',
    username: 'mock_client',
    password: PASSWORD,
    confirmPassword: PASSWORD,
    avatar: '/avatars/avatar-2.svg',
  })
  const body = expectOk(t, res, 201, AuthSignupReplySchema, 'signup')
  t.match(body.createdUser, {
    username: 'mock_client',
    firstName: 'Mock',
    avatarURL: '/avatars/avatar-2.svg',
    email: 'mock@example.com',
  })
  token = body.encodedToken
  me = body.createdUser
})

await t.test('post with image, sent by fetch as text/plain, and read back from posts', async (t) => {
  const res = await fetchText('POST', '/api/posts/', token, {
    postData: { content: 'Hello from a mock client', image: IMAGE },
  })
  const { posts, post } = expectOk(t, res, 201, PostWriteReplySchema, 'create')
  postId = post?._id ?? ''
  t.match(postIn(posts, postId), {
    content: 'Hello from a mock client',
    mediaUrl: IMAGE,
    type: 'image',
    username: 'mock_client',
  })
})

await t.test('like with { action: "like" }', async (t) => {
  const res = await axios('POST', `/api/posts/like/${postId}`, token, { action: 'like' })
  const likes = postIn(expectOk(t, res, 201, PostWriteReplySchema, 'like').posts, postId)?.likes
  t.equal(likes?.likeCount, 1)
  t.strictSame(
    likes?.likedBy.map((user) => user.username),
    ['mock_client'],
  )
})

await t.test('bookmark, then list bookmarks, both with trailing slashes and an empty JSON body', async (t) => {
  const added = expectOk(
    t,
    await axios('POST', `/api/users/bookmark/${postId}/`, token),
    200,
    BookmarksReplySchema,
    'bookmark',
  )
  t.strictSame(
    added.bookmarks.map((post) => post._id),
    [postId],
  )
  const listed = expectOk(t, await axios('GET', '/api/users/bookmark/', token), 200, BookmarksReplySchema, 'list')
  t.equal(listed.bookmarks[0]?.content, 'Hello from a mock client', 'bookmarks are whole posts')
})

await t.test('comment, and read it from posts as one client does and from comments as the other does', async (t) => {
  const res = await axios('POST', `/api/comments/add/${postId}`, token, { commentData: { text: 'First!' } })
  const body = expectOk(t, res, 201, CommentWriteReplySchema, 'comment')
  const comment = postIn(body.posts, postId)?.comments[0]
  t.match(comment, { text: 'First!', username: 'mock_client' }, 'in posts')
  t.strictSame(body.comments, postIn(body.posts, postId)?.comments, 'and in comments')
  commentId = comment?._id ?? ''
})

await t.test('upvote the comment, and read the vote from posts and from comments', async (t) => {
  const res = await axios('POST', `/api/comments/upvote/${postId}/${commentId}/`, token)
  const body = expectOk(t, res, 201, CommentWriteReplySchema, 'upvote')
  const voters = (comments: Post['comments'] | undefined) => comments?.[0]?.votes.upvotedBy.map((user) => user.username)
  t.strictSame(voters(postIn(body.posts, postId)?.comments), ['mock_client'], 'in posts')
  t.strictSame(voters(body.comments), ['mock_client'], 'in comments')
})

await t.test(
  "edit the post by sending the whole post back, with a flag of the client's own and tampered counts",
  async (t) => {
    const current = postIn(expectOk(t, await axios('GET', '/api/posts'), 200, PostsReplySchema).posts, postId) as Post
    const echoed = {
      ...current,
      content: 'Edited by echo',
      image: '',
      likes: { ...current.likes, likeCount: PLANTED_COUNT },
      comments: [],
      createdAt: PLANTED_DATE,
      bookmarked: true,
    }
    const res = await axios('POST', `/api/posts/edit/${postId}`, token, { postData: echoed })
    const edited = postIn(expectOk(t, res, 201, PostWriteReplySchema, 'edit').posts, postId)
    t.match(
      edited,
      { content: 'Edited by echo', mediaUrl: IMAGE, createdAt: current.createdAt },
      'mediaUrl wins over image',
    )
    t.equal(edited?.likes.likeCount, 1, "the like count is the server's")
    t.equal(edited?.comments.length, 1, 'so are the comments')
    t.notOk(edited && 'bookmarked' in edited, "the client's flag is not part of a post")
  },
)

await t.test('edit the profile with portfolio, then with the whole user object', async (t) => {
  const first = await axios('POST', '/api/users/edit/', token, {
    userData: { bio: 'Hi there', portfolio: 'https://mock.example.com' },
  })
  const { user } = expectOk(t, first, 201, UserReplySchema, 'portfolio')
  t.match(user, { bio: 'Hi there', website: 'https://mock.example.com' })

  const whole = {
    ...user,
    bio: 'Sent whole',
    password: PLANTED_PASSWORD,
    email: 'planted@example.com',
    followers: [{ ...user }],
    token,
  }
  const second = await fetchText('POST', '/api/users/edit', token, { userData: whole })
  const after = expectOk(t, second, 201, UserReplySchema, 'whole record').user
  t.match(after, {
    bio: 'Sent whole',
    website: 'https://mock.example.com',
    email: 'mock@example.com',
    username: 'mock_client',
  })
  t.strictSame(after.followers, [], "followers are the server's")
  me = after
})

await t.test('follow, with a trailing slash and an empty JSON body', async (t) => {
  const maya = expectOk(t, await axios('GET', '/api/users/maya.lin/'), 200, UserReplySchema).user
  const res = await axios('POST', `/api/users/follow/${maya._id}/`, token)
  const { user, followUser } = expectOk(t, res, 200, FollowReplySchema, 'follow')
  t.strictSame(
    user.following.map((other) => other.username),
    ['maya.lin'],
  )
  t.ok(followUser.followers.some((other) => other._id === me._id))
})

await t.test('delete the post: DELETE with content-type: application/json and no body', async (t) => {
  const res = await axios('DELETE', `/api/posts/${postId}`, token)
  t.notOk(postIn(expectOk(t, res, 201, PostWriteReplySchema, 'delete').posts, postId), 'gone from posts')
  const bookmarks = expectOk(t, await axios('GET', '/api/users/bookmark', token), 200, BookmarksReplySchema).bookmarks
  t.strictSame(bookmarks, [], 'and from the bookmarks')
})

await t.test('the stored data holds only what Chirp allows', async (t) => {
  const stored = await storedText(api)
  for (const planted of [
    'confirmPassword',
    'bookmarked',
    'portfolio',
    PASSWORD,
    PLANTED_PASSWORD,
    'planted@example.com',
    String(PLANTED_COUNT),
    PLANTED_DATE,
  ]) {
    t.notOk(stored.includes(planted), `no "${planted}" on disk`)
  }
  t.equal((await api.login('mock_client', PASSWORD)).length > 0, true, 'the signup password works')
  const planted = await axios('POST', '/api/auth/login', undefined, {
    username: 'mock_client',
    password: PLANTED_PASSWORD,
  })
  t.equal(planted.statusCode, 401, 'the password sent in a profile edit does not')
  const record = expectOk(t, await axios('GET', '/api/users/mock_client', token), 200, UserReplySchema).user
  t.match(record, {
    bio: 'Sent whole',
    website: 'https://mock.example.com',
    email: 'mock@example.com',
    avatarURL: '/avatars/avatar-2.svg',
  })
  t.strictSame(record.followers, [], 'nobody follows the mock client')
})
