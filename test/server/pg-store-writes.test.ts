import { randomUUID } from 'node:crypto'
import t from 'tap'
import type { CommentRecord, PostRecord, Store, StoreTx, UserRecord } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * Every write operation run on both stores, step by step from the same database: each step must answer
 * the same (and false where nothing changes), and afterwards both must hold the same records.
 */
const skip = await skipWithoutPostgres()

const at = (n: number) => new Date(Date.UTC(2026, 5, 1, 0, n)).toISOString()

/** The steps, each in a transaction of its own, with what each must answer. */
function script(database: ReturnType<typeof uuidDatabase>) {
  const [a, b, c, d] = database.users.map((user) => user._id) as [string, string, string, string]
  const [p, q] = database.posts.map((post) => post._id) as [string, string]
  const newcomer: UserRecord = {
    ...(database.users[0] as UserRecord),
    _id: randomUUID(),
    username: 'newcomer',
    bookmarks: [],
    following: [],
    followers: [],
    tokenVersion: 0,
    createdAt: at(0),
    updatedAt: at(0),
  }
  const r = randomUUID()
  const post: PostRecord = {
    _id: r,
    authorId: newcomer._id,
    content: 'fresh',
    mediaUrl: '',
    type: '',
    createdAt: at(1),
    updatedAt: at(1),
    likedBy: [],
    likeCount: 0,
    commentCount: 0,
    dislikedBy: [],
    comments: [],
  }
  const comment = (id: string, authorId: string, text: string): CommentRecord => ({
    _id: id,
    authorId,
    text,
    upvotedBy: [],
    downvotedBy: [],
    createdAt: at(2),
    updatedAt: at(2),
  })
  const [x, y] = [randomUUID(), randomUUID()]
  const token = { _id: randomUUID(), userId: a, expiresAt: at(600) }
  const steps: [string, (tx: StoreTx) => Promise<unknown>, unknown][] = [
    ['create a user', (tx) => tx.createUser(newcomer), 'created'],
    [
      'the same name in another case',
      (tx) => tx.createUser({ ...newcomer, _id: randomUUID(), username: 'NEWCOMER' }),
      'taken',
    ],
    [
      'a look-alike name',
      (tx) => tx.createUser({ ...newcomer, _id: randomUUID(), username: 'NEWC0RNER' }),
      'lookAlike',
    ],
    ['follow', (tx) => tx.follow(a, newcomer._id, at(3)), true],
    ['follow again', (tx) => tx.follow(a, newcomer._id, at(4)), false],
    ['follow nobody', (tx) => tx.follow(a, randomUUID(), at(4)), false],
    ['unfollow', (tx) => tx.unfollow(a, newcomer._id, at(5)), true],
    ['unfollow again', (tx) => tx.unfollow(a, newcomer._id, at(6)), false],
    ['follow back later', (tx) => tx.follow(newcomer._id, a, at(7)), true],
    [
      'a read sees its own transaction',
      async (tx) => (await tx.follow(d, c, at(8))) && (await tx.getUser(d))?.following.at(-1),
      c,
    ],
    ['bookmark', (tx) => tx.addBookmark(c, p, at(9)), true],
    ['bookmark again', (tx) => tx.addBookmark(c, p, at(10)), false],
    ['unbookmark one never kept', (tx) => tx.removeBookmark(c, q, at(10)), false],
    ['bookmark another', (tx) => tx.addBookmark(c, q, at(11)), true],
    ['unbookmark', (tx) => tx.removeBookmark(c, p, at(12)), true],
    ['insert a post', async (tx) => (await tx.insertPost(post), (await tx.getPost(r))?.content), 'fresh'],
    ['like', (tx) => tx.setReaction(r, a, true, at(13)), true],
    ['like again', (tx) => tx.setReaction(r, a, true, at(14)), false],
    ['another like', (tx) => tx.setReaction(r, b, true, at(15)), true],
    ['unlike', (tx) => tx.setReaction(r, a, false, at(16)), true],
    ['unlike again', (tx) => tx.setReaction(r, a, false, at(17)), false],
    ['unlike a post never liked', (tx) => tx.setReaction(r, c, false, at(17)), false],
    ['like once more, last in line', (tx) => tx.setReaction(r, a, true, at(18)), true],
    ['like a post that is gone', (tx) => tx.setReaction(randomUUID(), a, true, at(18)), false],
    [
      'comment',
      async (tx) => (await tx.addComment(r, comment(x, b, 'first')), (await tx.getPost(r))?.comments.length),
      1,
    ],
    ['upvote', (tx) => tx.setVote(r, x, a, true, at(19)), true],
    ['upvote again', (tx) => tx.setVote(r, x, a, true, at(20)), false],
    ['downvote by another', (tx) => tx.setVote(r, x, c, false, at(21)), true],
    ['turn an upvote down', (tx) => tx.setVote(r, x, a, false, at(22)), true],
    ['vote on a comment of another post', (tx) => tx.setVote(p, x, b, true, at(22)), false],
    ['edit the comment', (tx) => tx.updateComment(r, x, 'edited', at(23)), undefined],
    ['a second comment', (tx) => tx.addComment(r, comment(y, c, 'second')), undefined],
    ['delete it', (tx) => tx.deleteComment(r, y), undefined],
    [
      'edit a profile',
      async (tx) => (await tx.updateProfile(a, { bio: 'new bio', website: 'https://a.example' }, at(24)))?.bio,
      'new bio',
    ],
    ['edit nobody', (tx) => tx.updateProfile(randomUUID(), { bio: 'x' }, at(24)), undefined],
    [
      'revoke tokens',
      async (tx) => (await tx.revokeTokens(a), (await tx.getUser(a))?.tokenVersion),
      (database.users[0]?.tokenVersion ?? 0) + 1,
    ],
    [
      'revoke one token until it expires',
      async (tx) => (await tx.revokeToken(token, at(28)), await tx.isTokenRevoked(token._id)),
      true,
    ],
    ['another token stays valid', (tx) => tx.isTokenRevoked(randomUUID()), false],
    [
      'revoking it again changes nothing',
      async (tx) => (await tx.revokeToken(token, at(29)), await tx.isTokenRevoked(token._id)),
      true,
    ],
    [
      'add an image and its description',
      (tx) =>
        tx.updatePost(r, { content: 'with image', mediaUrl: '/media/x.png', type: 'image', mediaAlt: 'a cat' }, at(25)),
      undefined,
    ],
    [
      'edit the text only: the description stays',
      async (tx) => (
        await tx.updatePost(r, { content: 'text', mediaUrl: '/media/x.png', type: 'image' }, at(26)),
        (await tx.getPost(r))?.mediaAlt
      ),
      'a cat',
    ],
    [
      'a description set to undefined is cleared',
      async (tx) => (
        await tx.updatePost(r, { content: 'text', mediaUrl: '', type: '', mediaAlt: undefined }, at(27)),
        'mediaAlt' in ((await tx.getPost(r)) ?? {})
      ),
      false,
    ],
    ['bookmark the post to delete', (tx) => tx.addBookmark(d, p, at(28)), true],
    [
      'delete a post, with its bookmarks',
      async (tx) => (await tx.deletePost(p), (await tx.getUser(b))?.bookmarks.includes(p)),
      false,
    ],
    ['lock a post that is gone', async (tx) => tx.lockPost(p), undefined],
    ['lock an id that is no uuid', async (tx) => tx.lockPost('p1'), undefined],
  ]
  return steps
}

await t.test('every operation answers as the embedded store does, and leaves the same records', { skip }, async (t) => {
  const database = uuidDatabase()
  const stores = await openBothStores(t, database)
  const steps = script(database)
  for (const { name, store } of stores) {
    for (const [label, step, expected] of steps)
      t.strictSame(await store.transaction(step), expected, `${name}: ${label}`)
  }
  const [embedded, pg] = stores.map((opened) => opened.store) as [Store, Store]
  // The embedded store keeps a user's liked posts and their lists' places on the record, PostgreSQL in its
  // tables: both answer the lists alike (the contract suite), so the records are compared without them.
  const all = async (store: Store) => ({
    users: (await store.listUsers({})).items.map(({ likes: _kept, places: _places, ...user }) => user),
    posts: (await store.listPosts({ sort: 'oldest' })).items,
  })
  t.strictSame(await all(pg), await all(embedded), 'the same users and posts, every list in the same order')
})

await t.test('a transaction that throws leaves nothing behind and emits nothing', { skip }, async (t) => {
  const database = uuidDatabase({ users: 3, posts: 2 })
  const [user, other] = database.users.map((u) => u._id) as [string, string]
  const postId = database.posts[0]?._id as string
  for (const { name, store, events } of await openBothStores(t, database)) {
    const before = await store.getPost(postId)
    const failure = new Error('refused half way')
    let runs = 0
    await t.rejects(
      store.transaction(async (tx) => {
        runs++
        tx.emit({ name: 'post.deleted', data: { postId } })
        await tx.setReaction(postId, user, !before?.likedBy.includes(user), at(1))
        await tx.follow(user, other, at(1))
        await tx.deletePost(postId)
        throw failure
      }),
      failure,
      `${name}: the error comes through`,
    )
    t.equal(runs, 1, `${name}: an error of its own is not a lost race: the work is not run again`)
    t.strictSame(await store.getPost(postId), before, `${name}: the post is as it was`)
    t.strictSame((await store.getUser(user))?.following, database.users[0]?.following, `${name}: no follow`)
    t.strictSame(await events(), [], `${name}: no event`)

    await store.transaction(async (tx) => {
      tx.emit({ name: 'bookmark.added', data: { postId }, to: user })
      tx.emit({ name: 'post.deleted', data: { postId } })
    })
    t.strictSame(
      await events(),
      [
        { name: 'bookmark.added', to: user, data: { postId } },
        { name: 'post.deleted', to: null, data: { postId } },
      ],
      `${name}: a committed transaction's events, in order, private ones with their recipient`,
    )
  }
})
