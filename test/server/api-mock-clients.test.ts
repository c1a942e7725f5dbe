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
import { mockRequests } from '../helpers/mock-requests.js'
import { buildSeededApp } from '../helpers/seeded.js'

/**
 * The requests that clients written against the original in-browser mock send, as they send them,
 * through one user's journey. Each answer must be what such a client reads (the mock's status and
 * envelope, `posts` after every post and comment write), and what is stored must be only what Chirp allows.
 */
const api = await buildSeededApp(t, { config: { rateLimit: false } })
const { app } = api

const { axios, fetchText } = mockRequests(app)

/** Every post, as a mock client reads it after a write. */
const postIn = (posts: readonly Post[] | undefined, id: string) => posts?.find((post) => post._id === id)

const PASSWORD = 'mock-client-pw'
const PLANTED_PASSWORD = 'planted-password'
const PLANTED_COUNT = 424242
const PLANTED_DATE = '2000-01-01T00:00:00.000Z'
const IMAGE = 'https://images.example.com/cat.jpg'
const OTHER_IMAGE = 'https://images.example.com/dog.jpg'

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
  token = body.encodedToken ?? ''
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
      image: OTHER_IMAGE,
      likes: { ...current.likes, likeCount: PLANTED_COUNT },
      comments: [],
      createdAt: PLANTED_DATE,
      bookmarked: true,
    }
    const res = await axios('POST', `/api/posts/edit/${postId}`, token, { postData: echoed })
    const edited = postIn(expectOk(t, res, 201, PostWriteReplySchema, 'edit').posts, postId)
    t.match(
      edited,
      { content: 'Edited by echo', mediaUrl: OTHER_IMAGE, createdAt: current.createdAt },
      'mediaUrl only repeats the stored image, so the image the client changed is the edit',
    )
    t.equal(edited?.likes.likeCount, 1, "the like count is the server's")
    t.equal(edited?.comments.length, 1, 'so are the comments')
    t.notOk(edited && 'bookmarked' in edited, "the client's flag is not part of a post")

    const both = { content: 'Edited by echo', mediaUrl: IMAGE, image: 'https://images.example.com/owl.jpg' }
    const again = await axios('POST', `/api/posts/edit/${postId}`, token, { postData: both })
    const changed = postIn(expectOk(t, again, 201, PostWriteReplySchema, 'edit both').posts, postId)
    t.equal(changed?.mediaUrl, IMAGE, 'when both change the image, mediaUrl wins over image')
  },
)

await t.test("circle's profile edit: bio and portfolio, then portfolio and avatar read back", async (t) => {
  const res = await axios('POST', '/api/users/edit', token, {
    userData: { bio: 'Hi there', portfolio: 'https://example.com/peer' },
  })
  const { user } = expectOk(t, res, 201, UserReplySchema, 'circle edit')
  t.match(user, { bio: 'Hi there', website: 'https://example.com/peer', portfolio: 'https://example.com/peer' })
  t.equal(user.avatar, '/avatars/avatar-2.svg', 'avatar is avatarURL')
  t.equal(user.avatarURL, user.avatar)
  me = user
})

await t.test('edit the profile by sending the whole user object back', async (t) => {
  const whole = {
    ...me,
    bio: 'Sent whole',
    password: PLANTED_PASSWORD,
    email: 'planted@example.com',
    followers: [{ ...me }],
    token,
  }
  const res = await fetchText('POST', '/api/users/edit', token, { userData: whole })
  const after = expectOk(t, res, 201, UserReplySchema, 'whole record').user
  t.match(after, {
    bio: 'Sent whole',
    website: 'https://example.com/peer',
    portfolio: 'https://example.com/peer',
    email: 'mock@example.com',
    username: 'mock_client',
  })
  t.strictSame(after.followers, [], "followers are the server's")
  const { token: _sentBack, ...stored } = after
  me = stored
})

await t.test('a client echoing the stored website while editing its own portfolio field', async (t) => {
  const cleared = await axios('POST', '/api/users/edit', token, { userData: { website: '' } })
  const current = expectOk(t, cleared, 201, UserReplySchema, 'clear the website').user
  t.equal(current.website, '')
  const echoed = { ...current, website: '', portfolio: 'https://example.com/echo' }
  const res = await axios('POST', '/api/users/edit', token, { userData: echoed })
  const { user } = expectOk(t, res, 201, UserReplySchema, 'echo')
  t.match(user, { website: 'https://example.com/echo', portfolio: 'https://example.com/echo' }, 'portfolio is the edit')

  const both = { website: 'https://example.com/chirp', portfolio: 'https://example.com/other' }
  const next = expectOk(t, await axios('POST', '/api/users/edit', token, { userData: both }), 201, UserReplySchema)
  t.equal(next.user.website, 'https://example.com/chirp', 'when website changes too, website wins')
  const bad = await axios('POST', '/api/users/edit', token, { userData: { ...next.user, portfolio: 'javascript:x' } })
  t.equal(bad.statusCode, 400, 'a portfolio that is the edit is checked as a website')
  me = next.user
})

await t.test('follow, with a trailing slash and an empty JSON body', async (t) => {
  const maya = expectOk(t, await axios('GET', '/api/users/maya.lin/'), 200, UserReplySchema).user
  const res = await axios('POST', `/api/users/follow/${maya._id}/`, token)
  const { user, followUser } = expectOk(t, res, 200, FollowReplySchema, 'follow')
  t.strictSame(
    user.following.map((other) => other.username),
    ['maya.lin'],
  )
  t.ok(followUser?.followers.some((other) => other._id === me._id))
})

await t.test('delete the post: DELETE with content-type: application/json and no body', async (t) => {
  const res = await axios('DELETE', `/api/posts/${postId}`, token)
  t.notOk(postIn(expectOk(t, res, 201, PostWriteReplySchema, 'delete').posts, postId), 'gone from posts')
  const bookmarks = expectOk(t, await axios('GET', '/api/users/bookmark', token), 200, BookmarksReplySchema).bookmarks
  t.strictSame(bookmarks, [], 'and from the bookmarks')
})

let neogram: { token: string; user: User }

await t.test("Neogram's signup: username, email and password only", async (t) => {
  const res = await axios('POST', '/api/auth/signup', undefined, {
    username: 'neo_gram',
    email: 'neo@example.com',
    password: PASSWORD,
  })
  const body = expectOk(t, res, 201, AuthSignupReplySchema, 'signup')
  t.match(body.createdUser, { username: 'neo_gram', firstName: 'neo_gram', lastName: '', email: 'neo@example.com' })
  neogram = { token: body.encodedToken ?? '', user: body.createdUser }
})

await t.test(
  "Neogram's profile edit: the whole user with its token in userData, and user.token read back",
  async (t) => {
    const whole = { ...neogram.user, bio: 'From Neogram', token: neogram.token }
    const res = await axios('POST', '/api/users/edit', neogram.token, { userData: whole })
    const { user } = expectOk(t, res, 201, UserReplySchema, 'whole user')
    t.match(user, { bio: 'From Neogram', firstName: 'neo_gram', lastName: '', token: neogram.token })
    const read = expectOk(t, await axios('GET', '/api/users/neo_gram', neogram.token), 200, UserReplySchema).user
    t.notOk('token' in read, 'the token is given back, not kept')
    t.notOk((await storedText(api)).includes(neogram.token), 'nor stored')
  },
)

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
    website: 'https://example.com/chirp',
    email: 'mock@example.com',
    avatarURL: '/avatars/avatar-2.svg',
  })
  t.strictSame(record.followers, [], 'nobody follows the mock client')
})
