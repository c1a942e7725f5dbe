import t from 'tap'
import { readDatabaseFiles, writeDatabaseFiles } from '../../server/store/database-files.js'
import { MemoryIndex } from '../../server/store/memory-index.js'
import { SearchIndex } from '../../server/store/search-index.js'
import type { Database, NotificationRecord, Page, PostRecord, UserRecord } from '../../server/store/types.js'
import { tempDataDir } from '../helpers/app.js'
import { postRecord, userRecord } from '../helpers/records.js'

/**
 * How the embedded store loads a database: every list it builds is gathered from the posts in time order
 * (memory-index.ts, search-index.ts), and records read from disk share one copy of each id
 * (shared-strings.ts). Neither may change what any read answers.
 */

const WORDS = ['coffee', 'tea', 'rain', 'sun', 'bread']
const TAGS = ['morning', 'night', 'weekend']
const USERS = 6
const POSTS = 60

/** Cursors carry ids, which must be uuids as every id is; their order is their number's. */
const pid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`

/** Posts a minute apart, some pairs at the same instant (ties go by id), with shared words, tags, likes and authors. */
function post(i: number): PostRecord {
  const minute = Math.floor(i / 3) * 2 + (i % 3 === 2 ? 1 : 0)
  const at = new Date(Date.parse('2026-01-01T00:00:00.000Z') + minute * 60_000).toISOString()
  const likedBy = Array.from({ length: i % 4 }, (_, k) => `u${(i + k) % USERS}`)
  return {
    ...postRecord(i, `u${(i * 7) % USERS}`),
    _id: pid(i),
    content: `${WORDS[i % WORDS.length]} and ${WORDS[(i * 3) % WORDS.length]} #${TAGS[i % TAGS.length]} @user_${i % USERS}`,
    createdAt: at,
    updatedAt: at,
    likedBy,
    likeCount: likedBy.length,
  }
}

function users(): UserRecord[] {
  return Array.from({ length: USERS }, (_, i) => ({
    ...userRecord(i),
    following: Array.from({ length: USERS }, (_, j) => `u${j}`).filter((id, j) => j !== i && (i + j) % 2 === 0),
  }))
}

/** The same posts in the order of a hash, as shards hand them over. */
const shuffled = (posts: PostRecord[]) =>
  posts
    .map((p, i) => ({ p, key: (i * 37) % posts.length }))
    .sort((a, b) => a.key - b.key)
    .map(({ p }) => p)

function indexOf(posts: PostRecord[]): MemoryIndex {
  const index = new MemoryIndex()
  index.load({ version: 1, users: users(), posts: structuredClone(posts) })
  return index
}

/** Every page of a paged read, as ids, following the cursors. */
function allPages<T extends { _id: string } | string>(read: (cursor?: string) => Page<T>): string[][] {
  const pages: string[][] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 100; guard++) {
    const page = read(cursor)
    pages.push(page.items.map((item) => (typeof item === 'string' ? item : item._id)))
    if (page.nextCursor === null) break
    cursor = page.nextCursor
  }
  return pages
}

const newestFirst = (a: PostRecord, b: PostRecord) =>
  a.createdAt === b.createdAt ? (a._id < b._id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1

await t.test('every list a load builds reads the same whichever order the posts arrive in', async (t) => {
  const inTime = Array.from({ length: POSTS }, (_, i) => post(i))
  const orders = { 'time order': inTime, 'hash order': shuffled(inTime), 'newest first': inTime.slice().reverse() }
  const reads = (index: MemoryIndex) => ({
    latest: allPages((cursor) => index.listPosts({ sort: 'latest', limit: 7, cursor })),
    oldest: allPages((cursor) => index.listPosts({ sort: 'oldest', limit: 7, cursor })),
    trending: allPages((cursor) => index.listPosts({ sort: 'trending', limit: 7, cursor })),
    feed: allPages((cursor) => index.listPosts({ sort: 'latest', feedOf: 'u1', limit: 5, cursor })),
    authors: allPages((cursor) => index.listPosts({ sort: 'latest', authorIds: ['u2', 'u3'], limit: 4, cursor })),
    search: WORDS.map((word) => allPages((cursor) => index.search.posts([word], { limit: 4, cursor }))),
    both: allPages((cursor) => index.search.posts(['coffee', 'rain'], { limit: 3, cursor })),
    mention: allPages((cursor) => index.search.posts(['@user_2'], { limit: 3, cursor })),
    tags: TAGS.map((tag) => allPages((cursor) => index.search.tagged(tag, { limit: 4, cursor }))),
    trendingTags: index.search.trending('2025-12-31T00:00:00.000Z', 10),
    byAuthor: Array.from({ length: USERS }, (_, i) => index.postIdsBy(`u${i}`)),
    postCounts: Array.from({ length: USERS }, (_, i) => index.postCountOf(`u${i}`)),
    // The seed's users keep no likes of their own: they are worked out from the posts, oldest post first.
    likes: Array.from({ length: USERS }, (_, i) => index.likesOf(`u${i}`)),
  })
  const expected = reads(indexOf(inTime))
  t.equal(expected.latest.flat().length, POSTS, 'every post is on a page')
  t.strictSame(
    expected.latest.flat(),
    [...inTime]
      .reverse()
      .sort(newestFirst)
      .map((p) => p._id),
  )
  t.ok(
    expected.search.every((pages) => pages.flat().length > 0),
    'every word finds posts',
  )
  for (const [name, posts] of Object.entries(orders)) t.strictSame(reads(indexOf(posts)), expected, name)
})

await t.test('a search index given posts out of time order sorts them itself', async (t) => {
  const inTime = Array.from({ length: POSTS }, (_, i) => post(i))
  const read = (posts: PostRecord[]) => {
    const search = new SearchIndex()
    search.load(posts)
    return {
      words: WORDS.map((word) => allPages((cursor) => search.posts([word], { limit: 5, cursor }))),
      tags: TAGS.map((tag) => allPages((cursor) => search.tagged(tag, { limit: 5, cursor }))),
    }
  }
  t.strictSame(read(shuffled(inTime)), read(inTime))
  t.strictSame(read(inTime.slice().reverse()), read(inTime))
})

await t.test('a list taken at load stays sorted through later writes', async (t) => {
  const inTime = Array.from({ length: POSTS }, (_, i) => post(i))
  const index = indexOf(shuffled(inTime))
  const newest = { ...post(POSTS), _id: pid(999), createdAt: '2026-02-01T00:00:00.000Z', content: 'coffee #morning' }
  const between = { ...post(POSTS + 1), _id: pid(998), createdAt: inTime[10]?.createdAt as string, content: 'coffee' }
  index.putPost(newest)
  index.putPost(between)
  index.deletePost(pid(5))
  const coffee = allPages((cursor) => index.search.posts(['coffee'], { limit: 50, cursor })).flat()
  t.equal(coffee[0], pid(999), 'the newest post comes first')
  t.ok(coffee.includes(pid(998)))
  const times = coffee.map((id) => index.posts.get(id)?.createdAt as string)
  t.strictSame(times, [...times].sort().reverse(), 'newest first throughout')
  t.notOk(coffee.includes(pid(5)))
  t.equal(index.search.tagged('morning', { limit: 1 }).items[0], pid(999))
  const authorOfNewest = newest.authorId
  t.equal(index.postIdsBy(authorOfNewest)[0], pid(999))
})

await t.test('a database read back from disk is the one written, field for field', async (t) => {
  const dir = await tempDataDir(t)
  const people = users().map((user, i) => ({
    ...user,
    followers: users()
      .filter((other) => other.following.includes(user._id))
      .map((other) => other._id),
    bookmarks: [pid(1), pid(2)],
    likes: [pid(3)],
    ...(i === 0
      ? { blocking: ['u5'], muting: [{ userId: 'u4' }, { userId: 'u3', until: '2027-01-01T00:00:00.000Z' }] }
      : {}),
  }))
  const posts = Array.from({ length: 20 }, (_, i) => post(i)).map((p, i) =>
    i === 1
      ? {
          ...p,
          updatedAt: '2026-03-01T00:00:00.000Z',
          reposts: [{ userId: 'u2', at: '2026-03-02T00:00:00.000Z' }],
          repostCount: 1,
          comments: [
            {
              _id: 'c1',
              authorId: 'u3',
              text: 'yes',
              upvotedBy: ['u1'],
              downvotedBy: ['u2'],
              createdAt: p.createdAt,
              updatedAt: p.createdAt,
            },
          ],
          commentCount: 1,
        }
      : p,
  )
  const notifications: NotificationRecord[] = [
    { _id: 'n1', type: 'follow', recipientId: 'u1', actorId: 'u2', createdAt: '2026-01-02T00:00:00.000Z', read: false },
    {
      _id: 'n2',
      type: 'comment',
      recipientId: 'u1',
      actorId: 'u3',
      postId: pid(1),
      commentId: 'c1',
      createdAt: '2026-01-02T00:00:00.000Z',
      read: true,
    },
  ]
  const written: Database = { version: 1, users: people, posts, notifications }
  await writeDatabaseFiles(dir, structuredClone(written))
  const back = await readDatabaseFiles(dir)
  const byId = <T extends { _id: string }>(records: readonly T[] | undefined) =>
    [...(records ?? [])].sort((a, b) => (a._id < b._id ? -1 : 1))
  t.strictSame(byId(back.users), byId(written.users))
  t.strictSame(byId(back.posts), byId(written.posts))
  t.strictSame(byId(back.notifications), byId(written.notifications))
  const follow = back.notifications?.find((n) => n._id === 'n1')
  t.notOk(follow && 'postId' in follow, 'a field that was absent stays absent')
  t.notOk(follow && 'commentId' in follow)
  t.equal(JSON.stringify(byId(back.posts)), JSON.stringify(byId(written.posts)), 'and serialises as it did')
})
