import type { HostileCase, Targets } from './hostile-bodies.js'

/**
 * Hostile extra fields: a client may send anything beside the fields a call knows, and the call then
 * succeeds or fails on those fields alone, so these cases may well answer 2xx. What they
 * must never do is store what they planted. Every planted text holds PLANTED and every planted number
 * is PLANTED_NUMBER, so one search of what is on disk proves that none of it was kept.
 */
export const PLANTED = 'planted'
export const PLANTED_NUMBER = 424242
/** Planted keys whose names alone would show in a stored record. */
export const PLANTED_KEYS = ['isAdmin', 'confirmPassword']
/** Every post these cases may create starts with this. */
export const EXTRA_CONTENT = 'hostile extra'
/** The accounts the signup cases create. */
export const NEWCOMERS = [1, 2, 3, 4, 5].map((n) => `newcomer_${n}`)

const plantedKeys = (count: number, valid: Record<string, unknown>) =>
  JSON.stringify({ ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`${PLANTED}${i}`, i])), ...valid })

export function extraFieldCases(t: Targets): HostileCase[] {
  const json = { 'content-type': 'application/json' }
  const signup = (n: number, extra: Record<string, unknown>): HostileCase => ({
    name: `signup: extra ${Object.keys(extra).join(', ')}`,
    request: {
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        username: `newcomer_${n}`,
        password: 'password123',
        firstName: 'New',
        lastName: 'Comer',
        email: `new${n}@example.com`,
        ...extra,
      },
    },
    anonymous: true,
  })
  const edit = (name: string, payload: object): HostileCase => ({
    name: `users/edit: ${name}`,
    request: { method: 'POST', url: '/api/users/edit', payload },
    member: true,
  })
  const post = (name: string, payload: object): HostileCase => ({
    name: `posts create: ${name}`,
    request: { method: 'POST', url: '/api/posts', payload },
  })
  const comment = (name: string, payload: object): HostileCase => ({
    name: `comments add: ${name}`,
    request: { method: 'POST', url: `/api/comments/add/${t.ownPost}`, payload },
  })
  const content = `${EXTRA_CONTENT} post`

  return [
    signup(1, { isAdmin: true, confirmPassword: PLANTED }),
    signup(2, { _id: t.guestId }),
    signup(3, { passwordHash: `scrypt$1$1$1$${PLANTED}$y` }),
    signup(4, { tokenVersion: -PLANTED_NUMBER }),
    signup(5, { followers: [t.guestId, PLANTED], following: [PLANTED], bookmarks: [t.otherPost, PLANTED] }),
    {
      name: 'login: extra fields',
      request: {
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'guest', password: 'guestpassword', remember: PLANTED },
      },
      anonymous: true,
    },

    edit('a password', { password: `${PLANTED}-password` }),
    edit('an _id', { _id: PLANTED, bio: 'hi' }),
    edit('an email', { email: `${PLANTED}@example.com` }),
    edit('followers and following', { followers: [PLANTED], following: [{ _id: t.notFollowed, username: PLANTED }] }),
    edit('bookmarks', { bookmarks: [t.otherPost, PLANTED] }),
    edit('tokenVersion and dates', {
      tokenVersion: PLANTED_NUMBER,
      createdAt: `${PLANTED}`,
      updatedAt: '2000-01-01T00:00:00.000Z',
    }),
    edit('userData wrapper plus a field', { userData: { bio: 'wrapped' }, bio: PLANTED }),
    {
      name: 'users/edit: 10 000 unknown keys beside a valid one',
      request: {
        method: 'POST',
        url: '/api/users/edit',
        payload: plantedKeys(10_000, { bio: 'many keys' }),
        headers: json,
      },
      member: true,
    },

    post('likes', { content, likes: { likeCount: PLANTED_NUMBER, likedBy: [t.guestId], dislikedBy: [PLANTED] } }),
    post('_id of another post', { content, _id: t.otherPost, id: PLANTED }),
    post('username', { content, username: 'maya.lin', firstName: PLANTED }),
    post('authorId', { content, authorId: `${PLANTED}-author` }),
    post('comments', { content, comments: [{ _id: PLANTED, text: PLANTED, authorId: t.guestId }] }),
    post('postData wrapper plus a field', { postData: { content }, content: PLANTED }),
    {
      name: 'posts create: 10 000 unknown keys beside a valid one',
      request: { method: 'POST', url: '/api/posts', payload: plantedKeys(10_000, { content }), headers: json },
    },
    {
      name: 'posts edit: the whole post echoed with planted fields',
      request: {
        method: 'POST',
        url: `/api/posts/edit/${t.ownPost}`,
        payload: {
          postData: {
            content: `${EXTRA_CONTENT} edit`,
            _id: t.otherPost,
            username: 'maya.lin',
            likes: { likeCount: PLANTED_NUMBER },
            comments: [],
            createdAt: PLANTED,
          },
        },
      },
    },

    comment('votes', { text: `${EXTRA_CONTENT} comment`, votes: { upvotedBy: [t.guestId, PLANTED] } }),
    comment('commentData wrapper plus a field', { commentData: { text: `${EXTRA_CONTENT} wrapped` }, text: PLANTED }),

    { name: 'query: an unknown query field', request: { method: 'GET', url: `/api/posts?admin=${PLANTED}` } },
    { name: 'query: a __proto__ query', request: { method: 'GET', url: '/api/posts?__proto__[polluted]=1' } },
    { name: 'query: a bare __proto__ query', request: { method: 'GET', url: '/api/posts?__proto__=polluted' } },
    {
      name: 'query: a constructor.prototype query',
      request: { method: 'GET', url: '/api/posts?constructor[prototype][polluted]=1' },
    },

    {
      name: 'header: X-HTTP-Method-Override to DELETE on a like',
      request: {
        method: 'POST',
        url: `/api/posts/like/${t.unlikedPost}`,
        payload: { x: PLANTED },
        headers: { 'x-http-method-override': 'DELETE' },
      },
    },
    {
      name: 'header: a body on a like',
      request: { method: 'POST', url: `/api/posts/like/${t.unlikedPost}`, payload: { likeCount: PLANTED_NUMBER } },
    },
    // Last: it ends every session of the guest.
    {
      name: 'header: a body on logout',
      request: { method: 'POST', url: '/api/auth/logout', payload: { all: PLANTED } },
    },
  ]
}
