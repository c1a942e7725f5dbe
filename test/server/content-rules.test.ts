import path from 'node:path'
import t from 'tap'
import type { Visibility } from '../../common/audience.js'
import { AppError } from '../../server/errors.js'
import { createLocalMediaStorage } from '../../server/media/local-media-storage.js'
import { buildSeed } from '../../server/seed/index.js'
import { createCommentsService } from '../../server/services/comments.js'
import { keptDate } from '../../server/services/content-rules.js'
import { createPostsService } from '../../server/services/posts.js'
import { createReportsService } from '../../server/services/reports.js'
import { createUsersService } from '../../server/services/users.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { tempDataDir } from '../helpers/app.js'

/**
 * The rules of what a post, a comment, a profile or a report may hold are the services' own, below
 * HTTP: called without the API's schemas and body hygiene in front (as the import, and any other face,
 * calls them), they refuse the same text with the same 400, and nothing is written.
 */
const dataDir = await tempDataDir(t)
const store = await EmbeddedStore.open({
  dataDir,
  seed: () => buildSeed(createLocalMediaStorage(path.join(dataDir, 'media'))),
})
t.teardown(() => store.close())
const deps = { store, now: () => new Date() }
const posts = createPostsService(deps)
const comments = createCommentsService(deps)
const users = createUsersService(deps)
const reports = createReportsService({ ...deps, rateLimit: false })
const people = (await store.listUsers({})).items
const me = people[0]?._id ?? ''
const other = people[1]?._id ?? ''
const { post } = await posts.create(me, { content: 'a fine post' })

async function refused(what: string, write: () => Promise<unknown>, message: string) {
  const before = JSON.stringify(await store.listPosts({ sort: 'latest', limit: 50 }))
  const error = await Promise.resolve()
    .then(write)
    .then(
      () => undefined,
      (error: unknown) => error,
    )
  t.ok(error instanceof AppError && error.statusCode === 400, `${what}: a 400`)
  t.equal((error as Error | undefined)?.message, message, `${what}: "${message}"`)
  t.equal(JSON.stringify(await store.listPosts({ sort: 'latest', limit: 50 })), before, `${what}: nothing written`)
}

const cases: [string, () => Promise<unknown>, string][] = [
  ['a NUL in a post', () => posts.create(me, { content: 'a\u0000b' }), 'content must not contain control characters'],
  [
    'a lone surrogate in a post',
    () => posts.create(me, { content: '\udc00' }),
    'content must be well-formed Unicode text',
  ],
  [
    'an escape in an edit',
    () => posts.edit(me, post._id, { content: '\u001b[2J' }),
    'content must not contain control characters',
  ],
  [
    '501 characters',
    () => posts.create(me, { content: 'x'.repeat(501) }),
    'content must NOT have more than 500 characters',
  ],
  [
    'a control in a warning',
    () => posts.create(me, { content: 'x', spoilerText: '\u0085' }),
    'spoilerText must not contain control characters',
  ],
  [
    'a control in a poll option',
    () => posts.create(me, { content: 'x', poll: { options: ['a', 'b\u0000'], days: 1 } }),
    'poll.options.1 must not contain control characters',
  ],
  [
    'a blank poll option',
    () => posts.create(me, { content: 'x', poll: { options: ['a', '\u200b'], days: 1 } }),
    'poll options must not be blank',
  ],
  [
    'an audience that is none of the four',
    () => posts.create(me, { content: 'x', visibility: 'secret' as Visibility }),
    'visibility must be one of "public", "unlisted", "followers", "direct"',
  ],
  ['a NUL in a comment', () => comments.add(me, post._id, 'a\u0000'), 'text must not contain control characters'],
  [
    'a comment too long',
    () => comments.add(me, post._id, 'y'.repeat(501)),
    'text must NOT have more than 500 characters',
  ],
  ['a NUL in a name', () => users.edit(me, { firstName: 'A\u0000' }), 'firstName must not contain control characters'],
  [
    'an override in a display name',
    () => users.edit(me, { displayName: 'exe.\u202egnp' }),
    'displayName must not contain invisible or direction-changing characters',
  ],
  ['a bio too long', () => users.edit(me, { bio: 'b'.repeat(161) }), 'bio must NOT have more than 160 characters'],
  [
    'a control in a report',
    () => reports.create(me, { targetType: 'user', targetId: other, category: 'spam', comment: 'c\u0007' }),
    'comment must not contain control characters',
  ],
]
for (const [what, write, message] of cases) await refused(what, write, message)

await t.test('a date a post brings is kept between 1970 and now', async (t) => {
  const now = new Date('2026-03-01T12:00:00.000Z')
  t.equal(keptDate('2999-01-01T00:00:00Z', now), now.toISOString(), 'the future is now')
  t.equal(keptDate('-271000-01-01T00:00:00Z', now), '1970-01-01T00:00:00.000Z')
  t.equal(keptDate('0000-01-01T00:00:00Z', now), '1970-01-01T00:00:00.000Z')
  t.equal(keptDate('2021-06-01T10:00:00+02:00', now), '2021-06-01T08:00:00.000Z', 'a date between, in UTC')
  t.equal(keptDate('yesterday', now), undefined, 'no date at all')
})
