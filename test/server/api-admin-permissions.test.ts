import t from 'tap'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { ModeratedUserReplySchema } from '../../server/schemas/moderation.js'
import { expectError, expectOk, freshUsername } from '../helpers/api.js'
import { buildModerationApp, call, commentBy, postBy, STAFF } from '../helpers/moderation.js'
import { snapshotDb } from '../helpers/seeded.js'

/**
 * Every admin call as a user, a moderator and an admin (DECISIONS §8). Signups wait for approval here,
 * so that approve and reject have someone to act on; the members below are approved by the admin.
 */
const { api, admin, moderator } = await buildModerationApp(t, { registration: 'approval' })
const NOT_ALLOWED = 'You are not allowed to do this.'

type Person = { _id: string; role?: string }
const userOf = async (token: string, username: string) =>
  ((await call(api, token, 'GET', `/api/users/${username}`)).json() as { user: Person }).user

/** A signup waiting for approval: its id, username and password. */
async function pendingSignup() {
  const username = freshUsername('pending')
  const password = 'correct horse battery'
  const res = await call(api, undefined, 'POST', '/api/auth/signup', {
    username,
    password,
    email: `${username}@example.com`,
  })
  return { id: (res.json() as { createdUser: { _id: string } }).createdUser._id, username, password }
}

/** An approved member, signed in. */
async function member() {
  const person = await pendingSignup()
  await call(api, admin, 'POST', `/api/admin/users/${person.id}/approve`)
  return { ...person, token: await api.login(person.username, person.password) }
}

const user = await member()

/** What each call needs made fresh: a post and comment of someone's, a report, a suspended and a pending user. */
async function fixtures() {
  const someone = await member()
  const postId = await postBy(api, someone.token)
  const commentId = await commentBy(api, someone.token, postId)
  const reportRes = await call(api, user.token, 'POST', '/api/reports', {
    targetType: 'post',
    targetId: postId,
    category: 'spam',
  })
  const reportId = (reportRes.json() as { report: { _id: string } }).report._id
  const suspended = await member()
  await call(api, admin, 'POST', `/api/admin/users/${suspended.id}/suspend`, { reason: 'fixture' })
  return { someone, postId, commentId, reportId, suspended, pending: await pendingSignup() }
}
type Fixtures = Awaited<ReturnType<typeof fixtures>>

const CALLS: {
  name: string
  method: 'GET' | 'POST' | 'DELETE'
  url: (f: Fixtures) => string
  body?: object
  adminOnly?: boolean
}[] = [
  { name: 'the queue', method: 'GET', url: () => '/api/admin/reports' },
  {
    name: 'resolve',
    method: 'POST',
    url: (f) => `/api/admin/reports/${f.reportId}/resolve`,
    body: { action: 'dismiss' },
  },
  { name: 'pending signups', method: 'GET', url: () => '/api/admin/users?status=pending' },
  { name: 'a user', method: 'GET', url: (f) => `/api/admin/users/${f.someone.id}` },
  {
    name: 'set a role',
    method: 'POST',
    url: (f) => `/api/admin/users/${f.someone.id}/role`,
    body: { role: 'moderator' },
    adminOnly: true,
  },
  {
    name: 'suspend',
    method: 'POST',
    url: (f) => `/api/admin/users/${f.someone.id}/suspend`,
    body: { reason: 'spam', days: 3 },
  },
  { name: 'unsuspend', method: 'POST', url: (f) => `/api/admin/users/${f.suspended.id}/unsuspend` },
  { name: 'approve', method: 'POST', url: (f) => `/api/admin/users/${f.pending.id}/approve` },
  { name: 'reject', method: 'POST', url: (f) => `/api/admin/users/${f.pending.id}/reject` },
  { name: 'remove a post', method: 'DELETE', url: (f) => `/api/admin/posts/${f.postId}` },
  { name: 'remove a comment', method: 'DELETE', url: (f) => `/api/admin/comments/${f.postId}/${f.commentId}` },
  { name: 'the audit log', method: 'GET', url: () => '/api/admin/log' },
  { name: 'the job queue', method: 'GET', url: () => '/api/admin/jobs', adminOnly: true },
  { name: 'make an invite', method: 'POST', url: () => '/api/invites', body: { uses: 2 } },
  { name: 'the invites', method: 'GET', url: () => '/api/invites' },
]

await t.test('a user is refused every admin call with a 403, and nothing changes', async (t) => {
  const f = await fixtures()
  const before = await snapshotDb(api)
  for (const { name, method, url, body } of CALLS) {
    expectError(t, await call(api, user.token, method, url(f), body), 403, NOT_ALLOWED, `${name} as a user`)
  }
  expectError(
    t,
    await call(api, undefined, 'GET', '/api/admin/reports'),
    401,
    'The token is invalid. Unauthorized access error.',
  )
  t.strictSame(await snapshotDb(api), before, 'nothing changed')
})

await t.test('a moderator may make every call but setting roles and reading the job queue', async (t) => {
  for (const { name, method, url, body, adminOnly } of CALLS) {
    const res = await call(api, moderator, method, url(await fixtures()), body)
    if (adminOnly) expectError(t, res, 403, NOT_ALLOWED, `${name} as a moderator`)
    else
      t.ok(
        res.statusCode === 200 || res.statusCode === 201,
        `${name} as a moderator: ${res.statusCode} ${res.statusCode < 300 ? '' : res.body}`,
      )
  }
})

await t.test('an admin may make every call', async (t) => {
  for (const { name, method, url, body } of CALLS) {
    const res = await call(api, admin, method, url(await fixtures()), body)
    t.ok(
      res.statusCode === 200 || res.statusCode === 201,
      `${name} as an admin: ${res.statusCode} ${res.statusCode < 300 ? '' : res.body}`,
    )
  }
})

await t.test('a moderator cannot suspend a moderator or an admin; an admin can', async (t) => {
  const other = await member()
  expectOk(
    t,
    await call(api, admin, 'POST', `/api/admin/users/${other.id}/role`, { role: 'moderator' }),
    200,
    ModeratedUserReplySchema,
  )
  const adminId = (await userOf(admin, 'maya.lin'))._id
  const before = await snapshotDb(api)
  for (const [who, id] of [
    ['a moderator', other.id],
    ['an admin', adminId],
  ] as const) {
    const res = await call(api, moderator, 'POST', `/api/admin/users/${id}/suspend`, { reason: 'no' })
    expectError(t, res, 403, NOT_ALLOWED, `${who}, by a moderator`)
  }
  t.strictSame(await snapshotDb(api), before, 'nothing changed')
  const byAdmin = expectOk(
    t,
    await call(api, admin, 'POST', `/api/admin/users/${other.id}/suspend`, { reason: 'yes' }),
    200,
    ModeratedUserReplySchema,
  )
  t.match(
    byAdmin.user,
    { role: 'moderator', suspension: { reason: 'yes', until: null } },
    'an admin suspends a moderator',
  )
  expectError(
    t,
    await call(api, moderator, 'POST', `/api/admin/users/${other.id}/unsuspend`),
    403,
    NOT_ALLOWED,
    'nor lift it',
  )
  expectError(
    t,
    await call(api, admin, 'POST', `/api/admin/users/${adminId}/suspend`, { reason: 'me' }),
    400,
    'You cannot suspend yourself.',
  )
})

await t.test(
  'roles: guest never above user, an admin never lowers their own, role on one’s own record only',
  async (t) => {
    const guestId = (await userOf(admin, 'guest'))._id
    const adminId = (await userOf(admin, 'maya.lin'))._id
    const before = await snapshotDb(api)
    for (const role of ['moderator', 'admin']) {
      const res = await call(api, admin, 'POST', `/api/admin/users/${guestId}/role`, { role })
      expectError(t, res, 400, 'The guest account cannot hold a role above user.', `guest as ${role}`)
    }
    for (const role of ['moderator', 'user']) {
      const res = await call(api, admin, 'POST', `/api/admin/users/${adminId}/role`, { role })
      expectError(t, res, 400, 'An admin cannot lower their own role.', `own role to ${role}`)
    }
    expectError(
      t,
      await call(api, admin, 'POST', `/api/admin/users/${adminId}/role`, { role: 'owner' }),
      400,
      'role must be one of "user", "moderator", "admin"',
    )
    expectError(
      t,
      await call(api, admin, 'POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/role', { role: 'user' }),
      404,
      'User not found',
    )
    t.strictSame(await snapshotDb(api), before, 'nothing changed')
    const guestRes = await call(api, undefined, 'POST', '/api/auth/login', {
      username: 'guest',
      password: 'guestpassword',
    })
    t.equal((guestRes.json() as { foundUser: Person }).foundUser.role, 'user', 'the guest is a user')
    t.equal((await userOf(admin, 'maya.lin')).role, STAFF['maya.lin'], 'one’s own record carries the role')
    t.notOk('role' in (await userOf(user.token, 'maya.lin')), 'nobody else’s does')
    const raised = await member()
    const res = expectOk(
      t,
      await call(api, admin, 'POST', `/api/admin/users/${raised.id}/role`, { role: 'admin' }),
      200,
      ModeratedUserReplySchema,
    )
    t.equal(res.user.role, 'admin')
    const demoted = await call(api, raised.token, 'POST', `/api/admin/users/${adminId}/role`, { role: 'user' })
    t.equal(demoted.statusCode, 200, 'another admin may lower an admin')
    expectError(
      t,
      await call(api, admin, 'GET', '/api/admin/log'),
      403,
      NOT_ALLOWED,
      'and the lowered admin is a user at once',
    )
  },
)

await t.test('the audit log is read-only: no call edits or deletes it', async (t) => {
  const res = await call(api, moderator, 'GET', '/api/admin/log?limit=5')
  const { entries } = res.json() as { entries: { _id: string }[] }
  const id = entries[0]?._id ?? 'none'
  for (const method of ['DELETE', 'POST'] as const) {
    t.equal((await call(api, moderator, method, `/api/admin/log/${id}`)).statusCode, 404, `${method} of an entry`)
  }
  t.equal((await call(api, moderator, 'DELETE', '/api/admin/log')).statusCode, 404, 'DELETE of the log')
  expectOk(t, await call(api, moderator, 'GET', '/api/admin/log?limit=5'), 200, EmptyObjectSchema)
})
