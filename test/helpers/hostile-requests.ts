import type { InjectOptions } from 'fastify'
import type { HostileCase, Targets } from './hostile-bodies.js'

/** Ids that try to climb out, hide a byte, or are simply not ids. */
const BAD_IDS: Array<[string, string]> = [
  ['../ in the id', '..%2F..%2Fdb.json'],
  ['%2e%2e in the id', '%2e%2e'],
  ['a double-encoded climb', '%252e%252e%252fdb.json'],
  ['a backslash climb', '..%5C..%5Cdb.json'],
  ['a NUL byte', 'abc%00def'],
  ['65 characters', 'a'.repeat(65)],
  ['an RTL override', 'abc%E2%80%AEdef'],
  ['a zero-width space', 'abc%E2%80%8Bdef'],
  ['an unknown uuid', '00000000-0000-4000-8000-000000000000'],
]

const get = (name: string, url: string, extra: Partial<InjectOptions> = {}): HostileCase => ({
  name,
  request: { method: 'GET', url, ...extra },
})
const post = (name: string, url: string, payload?: unknown): HostileCase => ({
  name,
  request: { method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) },
})

/** Path parameters, queries, /media/ paths, methods, headers and calls without a token. */
export function requestCases(t: Targets): HostileCase[] {
  const ids: HostileCase[] = BAD_IDS.flatMap(([what, id]) => [
    get(`GET post with ${what}`, `/api/posts/${id}`),
    post(`like with ${what}`, `/api/posts/like/${id}`),
    { name: `delete post with ${what}`, request: { method: 'DELETE', url: `/api/posts/${id}` } },
    post(`comment on a post with ${what}`, `/api/comments/add/${id}`, { text: 'hi' }),
    post(`delete a comment with ${what}`, `/api/comments/delete/${t.ownPost}/${id}`),
    post(`follow a user with ${what}`, `/api/users/follow/${id}`),
    post(`bookmark a post with ${what}`, `/api/users/bookmark/${id}`),
  ])

  const usernames: HostileCase[] = [
    ['../ in a username', '..%2F..%2Fdb.json'],
    ['a username of 2 characters', 'ab'],
    ['a username of 31 characters', 'a'.repeat(31)],
    ['an unknown username of dots', '...'],
    ['an RTL override in a username', 'guest%E2%80%AE'],
    ['an invalid %-escape', '%E0%A4%A'],
  ].flatMap(([what, name]) => [
    get(`GET user: ${what}`, `/api/users/${name}`),
    get(`GET posts of user: ${what}`, `/api/posts/user/${name}`),
  ])

  const queries: HostileCase[] = [
    ['limit=0', '/api/posts?limit=0'],
    ['limit=101', '/api/posts?limit=101'],
    ['limit=abc', '/api/posts?limit=abc'],
    ['limit=-1', '/api/posts?limit=-1'],
    ['limit=1.5', '/api/posts?limit=1.5'],
    ['a cursor of symbols', '/api/posts?cursor=!!!'],
    ['a cursor of 201 characters', `/api/posts?cursor=${'a'.repeat(201)}`],
    ['a cursor that decodes to an object', `/api/posts?limit=5&cursor=${Buffer.from('{"x":1}').toString('base64url')}`],
    ['a cursor that decodes to a short key', `/api/users?limit=5&cursor=${Buffer.from('[1]').toString('base64url')}`],
    [
      'a negative offset cursor',
      `/api/comments/${t.ownPost}?limit=1&cursor=${Buffer.from('[-5]').toString('base64url')}`,
    ],
    ['sort=random on the feed', '/api/feed?sort=random'],
    ['limit twice', '/api/users?limit=1&limit=2'],
    ['suggestions limit=1000', '/api/users/suggestions?limit=1000'],
    ['a bookmarks cursor of garbage', '/api/users/bookmark?cursor=%%%'],
  ].map(([what, url]) => get(`query: ${what}`, url as string))

  const media: HostileCase[] = [
    ['../db.json', '/media/../db.json'],
    ['%2e%2e/db.json', '/media/%2e%2e/db.json'],
    ['..%2fdb.json', '/media/..%2fdb.json'],
    ['%2e%2e%2fjwt-secret', '/media/%2e%2e%2fjwt-secret'],
    ['a double-encoded climb', '/media/%252e%252e%252fdb.json'],
    ['a backslash climb', '/media/..%5Cdb.json'],
    ['a NUL byte', '/media/x.png%00.html'],
    ['a temporary upload', '/media/.upload-00000000-0000-4000-8000-000000000000'],
    ['the folder itself', '/media/'],
    ['an unknown file', '/media/00000000-0000-4000-8000-000000000000.png'],
    ['the lock file', '/media/../db.lock'],
  ].map(([what, url]) => get(`media: ${what}`, url as string))

  const methods: HostileCase[] = [
    { name: 'method: PUT /api/posts', request: { method: 'PUT', url: '/api/posts', payload: { content: 'x' } } },
    {
      name: 'method: PATCH /api/users/edit',
      request: { method: 'PATCH', url: '/api/users/edit', payload: { bio: 'x' } },
    },
    { name: 'method: DELETE /api/users/edit', request: { method: 'DELETE', url: '/api/users/edit' } },
    { name: 'method: TRACE /api/health', request: { method: 'TRACE', url: '/api/health' } },
    { name: 'method: GET /api/posts/like/:id', request: { method: 'GET', url: `/api/posts/like/${t.unlikedPost}` } },
  ]

  const headers: HostileCase[] = [
    {
      name: 'header: multipart body on a JSON route',
      request: {
        method: 'POST',
        url: '/api/posts',
        payload: '--b\r\nContent-Disposition: form-data; name="content"\r\n\r\nhi\r\n--b--\r\n',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      },
    },
    {
      name: 'header: JSON with a made-up subtype',
      request: {
        method: 'POST',
        url: '/api/posts',
        payload: '{"content":"x"}',
        headers: { 'content-type': 'application/json-patch+json' },
      },
    },
    {
      name: 'header: text/json',
      request: {
        method: 'POST',
        url: '/api/posts',
        payload: '{"content":"x"}',
        headers: { 'content-type': 'text/json' },
      },
    },
    {
      name: 'header: Prefer minimal with a bad body',
      request: { method: 'POST', url: '/api/posts', payload: { content: 5 }, headers: { prefer: 'return=minimal' } },
    },
    {
      name: 'header: a second token in Cookie is ignored',
      request: { method: 'POST', url: '/api/posts/like/x', headers: { cookie: 'token=abc' } },
      anonymous: true,
    },
  ]

  const events: HostileCase[] = [
    get('events: no ticket', '/api/events'),
    get('events: a climbing ticket', '/api/events?ticket=..%2F..%2Fdb.json'),
    get('events: a ticket of 201 characters', `/api/events?ticket=${'a'.repeat(201)}`),
    get('events: two tickets', '/api/events?ticket=a&ticket=b'),
    get('events: a token as the ticket', '/api/events?ticket=eyJhbGciOiJIUzI1NiJ9.e30.x', {
      headers: { 'last-event-id': '../../1' },
    }),
  ]

  const rules: HostileCase[] = [
    post(
      "delete another user's comment on another user's post",
      `/api/comments/delete/${t.otherPost}/${t.otherPostComment}`,
    ),
    {
      name: "DELETE another user's comment",
      request: { method: 'DELETE', url: `/api/comments/delete/${t.otherPost}/${t.otherPostComment}` },
    },
    post("edit another user's comment on my post", `/api/comments/edit/${t.ownPost}/${t.otherComment}`, {
      text: 'mine now',
    }),
    { name: "delete another user's post", request: { method: 'DELETE', url: `/api/posts/${t.otherPost}` } },
    post('dislike a post I have not liked', `/api/posts/dislike/${t.unlikedPost}`),
    post('follow myself', `/api/users/follow/${t.guestId}`),
    post('follow someone I follow', `/api/users/follow/${t.followed}`),
    post('unfollow someone I do not follow', `/api/users/unfollow/${t.notFollowed}`),
    post('remove a bookmark I do not have', `/api/users/remove-bookmark/${t.otherPost}`),
    post('upvote an unknown comment', `/api/comments/upvote/${t.otherPost}/00000000-0000-4000-8000-000000000000`),
    post(
      'downvote on an unknown post',
      `/api/comments/downvote/00000000-0000-4000-8000-000000000000/${t.otherPostComment}`,
    ),
  ]

  const writes: Array<[string, string]> = [
    ['POST', '/api/posts'],
    ['POST', `/api/posts/edit/${t.ownPost}`],
    ['DELETE', `/api/posts/${t.ownPost}`],
    ['POST', `/api/posts/like/${t.unlikedPost}`],
    ['POST', `/api/comments/add/${t.ownPost}`],
    ['POST', `/api/comments/delete/${t.ownPost}/${t.otherComment}`],
    ['POST', '/api/users/edit'],
    ['POST', `/api/users/follow/${t.notFollowed}`],
    ['POST', `/api/users/bookmark/${t.otherPost}`],
    ['POST', '/api/media'],
    ['POST', '/api/auth/logout'],
    ['POST', '/api/auth/logout-all'],
    ['POST', '/api/account/password'],
    ['POST', '/api/account/2fa/setup'],
    ['POST', '/api/account/2fa/enable'],
    ['POST', '/api/account/2fa/disable'],
    ['POST', '/api/events/ticket'],
  ]
  const anonymous: HostileCase[] = writes.map(([method, url]) => ({
    name: `no token: ${method} ${url.replace(/[0-9a-f-]{36}/g, ':id')}`,
    request: {
      method: method as 'POST',
      url,
      payload: url.includes('edit') || url === '/api/posts' ? { content: 'x', bio: 'x' } : undefined,
    },
    anonymous: true,
  }))

  return [...ids, ...usernames, ...queries, ...media, ...methods, ...headers, ...events, ...rules, ...anonymous]
}
