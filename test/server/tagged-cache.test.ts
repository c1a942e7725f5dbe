import t from 'tap'
import { ALL, changeTags, likeBucket, likeBucketTags, writeChange } from '../../server/store/change-tags.js'
import { TaggedCache } from '../../server/tagged-cache.js'

await t.test('an entry lasts until one of its tags changes', async (t) => {
  const cache = new TaggedCache(10)
  cache.set('page', 'kept', ['post:1', 'follows:a'], cache.stamp())
  t.equal(cache.get('page'), 'kept')
  cache.change(['post:2', 'follows:b'])
  t.equal(cache.get('page'), 'kept', 'a change to other tags leaves it')
  cache.change(['follows:a'])
  t.equal(cache.get('page'), undefined, 'a change to one of its tags voids it')
})

await t.test('a change while a read is under way voids what that read keeps', async (t) => {
  const cache = new TaggedCache(10)
  const stamp = cache.stamp() // the read begins
  cache.change(['post:1']) // a write lands meanwhile
  cache.set('view', 'drawn before the write', ['post:1'], stamp)
  t.equal(cache.get('view'), undefined)
  cache.set('view', 'drawn after it', ['post:1'], cache.stamp())
  t.equal(cache.get('view'), 'drawn after it')
})

await t.test('clear voids everything, and what a read begun before it keeps', async (t) => {
  const cache = new TaggedCache(10)
  const before = cache.stamp()
  cache.set('a', 1, [], before)
  cache.clear()
  t.equal(cache.get('a'), undefined)
  cache.set('b', 2, [], before)
  t.equal(cache.get('b'), undefined, 'kept by a read from before the clear')
  t.equal(cache.size, 0)
})

await t.test('the cache holds at most its bound', async (t) => {
  const cache = new TaggedCache(3)
  for (const key of ['a', 'b', 'c', 'd']) cache.set(key, key, [], cache.stamp())
  t.equal(cache.size, 3)
  t.equal(cache.get('a'), undefined, 'the least recently used went first')
})

const logged = (name: string, data: object, extra: { to?: string; by?: string } = {}) => ({
  id: 1,
  name,
  data: JSON.stringify(data),
  to: extra.to,
  ...(extra.by !== undefined ? { by: extra.by } : {}),
})

await t.test('what each event changes', async (t) => {
  t.strictSame(changeTags(logged('post.created', { post: { _id: 'p' } }, { by: 'a' })), ['post:p', 'author:a'])
  t.strictSame(changeTags(logged('post.deleted', { postId: 'p' }, { by: 'a' })), ['post:p', 'author:a'])
  t.strictSame(
    changeTags(logged('post.liked', { postId: 'p', liked: true, likeCount: 3 }, { by: 'u' })),
    ['post:p', 'liked-by:u', 'likes-at:2', 'likes-at:3'],
    'a like moves its post from one count to the next',
  )
  t.strictSame(
    changeTags(logged('post.liked', { postId: 'p', liked: false, likeCount: 3 }, { by: 'u' })),
    ['post:p', 'liked-by:u', 'likes-at:4', 'likes-at:3'],
    'an unlike from the count above',
  )
  t.strictSame(changeTags(logged('post.reposted', { postId: 'p' }, { by: 'r' })), [
    'post:p',
    'author:r',
    'reposted-by:r',
  ])
  t.strictSame(changeTags(logged('comment.added', { postId: 'p' }, { by: 'c' })), ['post:p'])
  t.strictSame(changeTags(logged('user.followed', {}, { by: 'f' })), ['follows:f'])
  t.strictSame(changeTags(logged('user.blocked', { user: { _id: 'b' } }, { to: 'a' })), ['relations:a', 'relations:b'])
  t.strictSame(changeTags(logged('user.updated', {})), ['people'])
  t.strictSame(changeTags(logged('user.suspended', { userId: 's' })), ['suspensions', 'likes'])
  t.strictSame(changeTags(logged('notification.created', {}, { to: 'a' })), [], 'nothing kept is about notifications')
  t.strictSame(changeTags(logged('session.ended', { tokenId: 't' }, { to: 'a' })), ['token:t'], 'a logout')
  t.strictSame(changeTags(logged('session.ended', {}, { to: 'a' })), [], 'every token: the token version says it')
  t.equal(changeTags(logged('user.deleted', { userId: 'd' })), ALL, 'a deletion voids everything')
  t.equal(changeTags(logged('store.changed', {})), ALL, 'so does a write without events of its own')
  t.equal(changeTags(logged('post.liked', { postId: 'p' })), ALL, 'and an event missing what it names')
  t.equal(changeTags({ name: 'post.updated', data: 'not json', to: undefined }), ALL)
  t.strictSame(
    changeTags({ name: 'comment.added', data: { postId: 'p' }, by: 'c' }),
    ['post:p'],
    'data as committed, not yet serialised, reads the same',
  )
})

await t.test('what one write changed, from all its events', async (t) => {
  t.strictSame(
    writeChange([
      logged('post.created', { post: { _id: 'p' } }, { by: 'a' }),
      logged('user.followed', {}, { by: 'a' }),
    ]),
    ['post:p', 'author:a', 'follows:a'],
    'the tags of every event',
  )
  t.strictSame(writeChange([logged('notification.created', {}, { to: 'a' })]), [], 'events that change nothing kept')
  t.equal(writeChange([]), ALL, 'a write without events voids everything: nothing says what it changed')
  t.equal(
    writeChange([logged('user.updated', {}), logged('user.deleted', { userId: 'd' })]),
    ALL,
    'as does one event that voids everything',
  )
})

await t.test('like buckets: one a count to 64, then one a doubling', async (t) => {
  t.equal(likeBucket(0), 0)
  t.equal(likeBucket(64), 64)
  t.equal(likeBucket(65), 65)
  t.equal(likeBucket(128), 66)
  t.equal(likeBucket(255), 66)
  t.strictSame(likeBucketTags(3, 5), ['likes-at:3', 'likes-at:4', 'likes-at:5'])
  const open = likeBucketTags(60, Infinity)
  t.equal(open[0], 'likes-at:60')
  t.ok(open.includes(`likes-at:${likeBucket(1_000_000)}`), 'a page with no upper end covers every count above')
})
