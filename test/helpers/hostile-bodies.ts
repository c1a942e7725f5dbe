import type { InjectOptions } from 'fastify'

/**
 * One hostile request, named, sent with the guest's token unless `anonymous`, or with a member's when
 * `member`: a profile edit, as the guest's profile cannot be changed at all.
 */
export interface HostileCase {
  name: string
  request: InjectOptions
  anonymous?: boolean
  member?: boolean
}

/** What the cases aim at: ids and names taken from the seeded data. */
export interface Targets {
  guestId: string
  /** A post by the guest, with a comment by someone else. */
  ownPost: string
  otherComment: string
  /** A post by someone else that the guest has not liked. */
  unlikedPost: string
  /** A post by someone else, with a comment neither by the guest nor on the guest's post. */
  otherPost: string
  otherPostComment: string
  /** A user the guest follows, and one the guest does not follow. */
  followed: string
  notFollowed: string
}

const json = (payload: string): Pick<InjectOptions, 'payload' | 'headers'> => ({
  payload,
  headers: { 'content-type': 'application/json' },
})

/** Nested arrays deeper than any parser should be asked to walk. */
const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

/** Attacks on the shape of a JSON body, the same for every route that takes one. */
function bodyAttacks(
  label: string,
  method: 'POST',
  url: string,
  valid: Record<string, unknown>,
  anonymous = false,
): HostileCase[] {
  const validJson = JSON.stringify(valid).slice(1, -1)
  const cases: Array<[string, Pick<InjectOptions, 'payload' | 'headers'>]> = [
    ['body is an array', json('[]')],
    ['body is a string', json('"content"')],
    ['body is null', json('null')],
    ['body is a number', json('42')],
    ['__proto__ key', json(`{"__proto__":{"polluted":true},${validJson}}`)],
    ['constructor.prototype key', json(`{"constructor":{"prototype":{"polluted":true}},${validJson}}`)],
    ['invalid JSON', json('{"a":')],
    ['empty JSON body', json('')],
    [
      'form-encoded body',
      { payload: 'content=hello&text=hello', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    ],
    // A text/plain body holding JSON is read as JSON; one that is not JSON is refused.
    [
      'text/plain body that is not JSON',
      { payload: 'content=hello&text=hello', headers: { 'content-type': 'text/plain' } },
    ],
    [
      'text/plain body with a __proto__ key',
      { payload: `{"__proto__":{"polluted":true},${validJson}}`, headers: { 'content-type': 'text/plain' } },
    ],
    ['XML body', { payload: '<content>hello</content>', headers: { 'content-type': 'application/xml' } }],
    ['body over 1 MiB', json(JSON.stringify({ ...valid, pad: 'x'.repeat(1_100_000) }))],
    ['nested 5000 deep', json(deep(5000))],
    [
      'Content-Length shorter than the body',
      { payload: JSON.stringify(valid), headers: { 'content-type': 'application/json', 'content-length': '3' } },
    ],
  ]
  return cases.map(([name, body]) => ({ name: `${label}: ${name}`, request: { method, url, ...body }, anonymous }))
}

const long = (n: number) => 'a'.repeat(n)
const RLO = '\u202e'
const ZWSP = '\u200b'
const LONE = '\ud800'
const HANGUL_FILLER = '\u3164'
const BRAILLE_BLANK = '\u2800'

const SIGNUP = {
  username: 'newcomer',
  password: 'password123',
  firstName: 'New',
  lastName: 'Comer',
  email: 'new@example.com',
}

/**
 * Bodies that are JSON objects but wrong: types, missing fields, sizes, Unicode and links. Extra fields
 * are not wrong (ignored, never stored); hostile-extras.ts holds those.
 */
export function bodyCases(t: Targets): HostileCase[] {
  const signup = (name: string, body: Record<string, unknown>): HostileCase => ({
    name: `signup: ${name}`,
    request: { method: 'POST', url: '/api/auth/signup', payload: body },
    anonymous: true,
  })
  const without = (key: keyof typeof SIGNUP) => Object.fromEntries(Object.entries(SIGNUP).filter(([k]) => k !== key))
  const login = (name: string, body: unknown): HostileCase => ({
    name: `login: ${name}`,
    request: { method: 'POST', url: '/api/auth/login', payload: body as object },
    anonymous: true,
  })
  const edit = (name: string, body: unknown): HostileCase => ({
    name: `users/edit: ${name}`,
    request: { method: 'POST', url: '/api/users/edit', payload: body as object },
    member: true,
  })
  const post = (name: string, body: unknown): HostileCase => ({
    name: `posts create: ${name}`,
    request: { method: 'POST', url: '/api/posts', payload: body as object },
  })
  const postEdit = (name: string, body: unknown, id = t.ownPost): HostileCase => ({
    name: `posts edit: ${name}`,
    request: { method: 'POST', url: `/api/posts/edit/${id}`, payload: body as object },
  })
  const comment = (name: string, body: unknown): HostileCase => ({
    name: `comments add: ${name}`,
    request: { method: 'POST', url: `/api/comments/add/${t.ownPost}`, payload: body as object },
  })

  return [
    ...bodyAttacks('signup', 'POST', '/api/auth/signup', SIGNUP, true),
    ...bodyAttacks('login', 'POST', '/api/auth/login', { username: 'guest', password: 'guestpassword' }, true),
    ...bodyAttacks('users/edit', 'POST', '/api/users/edit', { bio: 'hi' }).map((c) => ({ ...c, member: true })),
    ...bodyAttacks('posts create', 'POST', '/api/posts', { content: 'hi' }),
    ...bodyAttacks('posts edit', 'POST', `/api/posts/edit/${t.ownPost}`, { content: 'hi' }),
    ...bodyAttacks('comments add', 'POST', `/api/comments/add/${t.ownPost}`, { text: 'hi' }),
    ...bodyAttacks('comments edit', 'POST', `/api/comments/edit/${t.otherPost}/${t.otherPostComment}`, { text: 'hi' }),

    signup('missing username', without('username')),
    signup('missing password', without('password')),
    signup('missing email', without('email')),
    signup('missing firstName', without('firstName')),
    signup('username is a number', { ...SIGNUP, username: 123 }),
    signup('password is true', { ...SIGNUP, password: true }),
    signup('email is an array', { ...SIGNUP, email: ['a@example.com'] }),
    signup('firstName is null', { ...SIGNUP, firstName: null }),
    signup('username of 31 characters', { ...SIGNUP, username: long(31) }),
    signup('password of 129 characters', { ...SIGNUP, password: long(129) }),
    signup('password of 7 characters', { ...SIGNUP, password: 'short77' }),
    signup('firstName of 51 characters', { ...SIGNUP, firstName: long(51) }),
    signup('email of 255 characters', { ...SIGNUP, email: `${long(243)}@example.com` }),
    signup('email that is not an address', { ...SIGNUP, email: 'not-an-email' }),
    signup('username with a space', { ...SIGNUP, username: 'new comer' }),
    signup('username with a slash', { ...SIGNUP, username: '../admin' }),
    signup('username with an RTL override', { ...SIGNUP, username: `admin${RLO}txt` }),
    signup('username with a zero-width space', { ...SIGNUP, username: `gu${ZWSP}est` }),
    signup('username taken, in another case', { ...SIGNUP, username: 'GUEST' }),
    signup('firstName with an RTL override', { ...SIGNUP, firstName: `Eve${RLO}nimda` }),
    signup('lastName with a zero-width space', { ...SIGNUP, lastName: `Us${ZWSP}er` }),
    signup('firstName with a lone surrogate', { ...SIGNUP, firstName: `A${LONE}` }),
    signup('lastName with a NUL byte', { ...SIGNUP, lastName: 'Us\u0000er' }),
    signup('firstName with a right-to-left mark', { ...SIGNUP, firstName: 'Eve\u200f' }),
    signup('lastName with a line feed', { ...SIGNUP, lastName: 'Co\nmer' }),
    signup('firstName of Hangul fillers only', { ...SIGNUP, firstName: HANGUL_FILLER.repeat(3) }),
    signup('avatarURL javascript:', { ...SIGNUP, avatarURL: 'javascript:alert(1)' }),

    login('missing password', { username: 'guest' }),
    login('username of 31 characters', { username: long(31), password: 'x' }),
    login('password of 129 characters', { username: 'guest', password: long(129) }),
    login('username is a number', { username: 1, password: 'guestpassword' }),
    login('password is an object', { username: 'guest', password: { $ne: '' } }),
    login('unknown user', { username: 'nobody_here', password: 'whatever1' }),
    login('wrong password', { username: 'guest', password: 'guestpassword!' }),
    login('username with a lone surrogate', { username: `guest${LONE}`, password: 'guestpassword' }),
    login('empty strings', { username: '', password: '' }),

    edit('a username change', { username: 'maya.lin' }),
    edit('a username change beside a whole record', { username: 'maya.lin', bio: 'x', followers: [], _id: t.guestId }),
    edit('portfolio javascript:', { portfolio: 'javascript:alert(1)' }),
    edit('avatar data:', { avatar: 'data:image/svg+xml,<svg onload=alert(1)>' }),
    edit('bio of 161 characters', { bio: long(161) }),
    edit('website javascript:', { website: 'javascript:alert(1)' }),
    edit('website data:', { website: 'data:text/html,<script>alert(1)</script>' }),
    edit('website vbscript:', { website: 'vbscript:msgbox(1)' }),
    edit('website protocol-relative', { website: '//evil.example' }),
    edit('website with credentials', { website: 'https://user:pass@evil.example' }),
    edit('website of 201 characters', { website: `https://${long(193)}` }),
    edit('empty firstName', { firstName: '' }),
    edit('lastName with an RTL override', { lastName: `${RLO}resU` }),
    edit('firstName with a tab', { firstName: 'Gu\test' }),
    edit('lastName of a soft hyphen only', { lastName: '\u00ad' }),
    edit('bio with a lone surrogate', { bio: `hi ${LONE}` }),
    edit('bio with an escape character', { bio: 'hi \u001b[31mred' }),
    edit('avatarURL climbing out of /media/', { avatarURL: '/media/../db.json' }),
    edit('firstName is an array', { firstName: ['a', 'b'] }),

    post('content of 501 characters', { content: long(501) }),
    post('content is a number', { content: 123 }),
    post('content is null', { content: null }),
    post('content is an array of 100 000', { content: Array.from({ length: 100_000 }, () => 'a') }),
    post('mediaUrl javascript:', { content: 'x', mediaUrl: 'javascript:alert(1)' }),
    post('mediaUrl plain http', { content: 'x', mediaUrl: 'http://example.com/a.png' }),
    post('mediaUrl climbing out of /media/', { content: 'x', mediaUrl: '/media/../db.json' }),
    post('mediaUrl %-encoded climb', { content: 'x', mediaUrl: '/media/%2e%2e/db.json' }),
    post('image javascript:', { content: 'x', image: 'javascript:alert(1)' }),
    post('imageUrl plain http', { content: 'x', imageUrl: 'http://example.com/a.png' }),
    post('image is an object', { content: 'x', image: { url: 'https://example.com/a.png' } }),
    post('content too long beside owned fields', { content: long(501), likes: { likeCount: 5 }, _id: t.otherPost }),
    post('no content and no media', { content: '' }),
    post('whitespace only', { content: ' \n\t ' }),
    post('invisible characters only', { content: `${ZWSP}\u2060${BRAILLE_BLANK}${HANGUL_FILLER}` }),
    post('type video', { content: 'x', type: 'video' }),
    post('content with a lone surrogate', { content: `${LONE} hi` }),
    post('content with a NUL byte', { content: 'hi\u0000' }),

    postEdit("another user's post", { content: 'mine now' }, t.otherPost),
    postEdit('content of 501 characters', { content: long(501) }),
    postEdit('mediaUrl data:', { mediaUrl: 'data:image/png;base64,AAAA' }),
    postEdit('emptied', { content: '', mediaUrl: '' }),

    comment('empty text', { text: '' }),
    comment('text of 501 characters', { text: long(501) }),
    comment('whitespace only', { text: '   ' }),
    comment('invisible characters only', { text: `${BRAILLE_BLANK}${ZWSP}` }),
    comment('text is a number', { text: 123 }),
    comment('missing text', {}),
    comment('text with a lone surrogate', { text: `\udc00` }),
  ]
}
