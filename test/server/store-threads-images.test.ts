import { randomUUID } from 'node:crypto'
import t from 'tap'
import type { CommentRecord, Database, PostRecord } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * Threads as trees and posts with several images, held to one contract by both stores (DECISIONS §15):
 * a reply keeps its parent at any depth and data from when threads were one level deep reads as replies
 * to the root; a post's images after the first come back in order and go when an edit takes them; the
 * alt-text reminder is kept with the account, on unless turned off.
 */
const base = uuidDatabase({ users: 3, posts: 0 })
const [ana, bo] = base.users
if (!ana || !bo) throw new Error('two people')
const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 0, minute)).toISOString()
const comment = (id: string, minute: number, replyTo?: string): CommentRecord => ({
  _id: id,
  authorId: minute % 2 === 0 ? ana._id : bo._id,
  text: `comment ${minute}`,
  upvotedBy: [],
  downvotedBy: [],
  createdAt: at(minute),
  updatedAt: at(minute),
  ...(replyTo ? { replyTo } : {}),
})
const ids = { root: randomUUID(), old: randomUUID(), reply: randomUUID(), deeper: randomUUID() }
/** Written when a reply to a reply was filed under the root: `old` answers `reply` but names `root`. */
const threaded: PostRecord = {
  _id: randomUUID(),
  authorId: ana._id,
  content: 'a thread',
  mediaUrl: '/media/11111111-1111-4111-8111-111111111111.png',
  type: 'image',
  mediaAlt: 'the first',
  mediaWidth: 4,
  mediaHeight: 3,
  moreMedia: [
    { url: '/media/22222222-2222-4222-8222-222222222222.png', alt: 'the second', width: 8, height: 6 },
    { url: 'https://images.example/third.png' },
  ],
  createdAt: at(0),
  updatedAt: at(0),
  likedBy: [],
  dislikedBy: [],
  comments: [comment(ids.root, 1), comment(ids.reply, 2, ids.root), comment(ids.old, 3, ids.root)],
  likeCount: 0,
  commentCount: 3,
}
const database: Database = { ...base, posts: [threaded] }

for (const { name, store } of await openBothStores(t, database)) {
  await t.test(name, async (t) => {
    const read = async () => {
      const post = await store.getPost(threaded._id)
      if (!post) throw new Error('the post')
      return post
    }
    const before = await read()
    t.strictSame(
      before.comments.map((each) => [each._id, each.replyTo ?? null]),
      [
        [ids.root, null],
        [ids.reply, ids.root],
        [ids.old, ids.root],
      ],
      'old replies read as replies to the root',
    )
    await store.transaction(async (tx) => tx.addComment(threaded._id, comment(ids.deeper, 4, ids.reply)))
    t.equal((await store.getComment(threaded._id, ids.deeper))?.replyTo, ids.reply, 'a new reply keeps its parent')
    t.strictSame(
      (await store.transaction((tx) => tx.listReplies(threaded._id, ids.reply))).map((each) => each._id),
      [ids.deeper],
      'and is listed under it',
    )

    t.strictSame(before.moreMedia, threaded.moreMedia, 'the images after the first, in order, as written')
    t.ok(await store.isMediaUsed('/media/22222222-2222-4222-8222-222222222222.png'), 'a later image is in use')
    await store.transaction((tx) =>
      tx.updatePost(
        threaded._id,
        { content: 'one image now', mediaUrl: threaded.mediaUrl, type: 'image', moreMedia: [] },
        at(9),
      ),
    )
    const after = await read()
    t.equal(after.moreMedia, undefined, 'an edit to one image keeps no others')
    t.notOk(await store.isMediaUsed('/media/22222222-2222-4222-8222-222222222222.png'), 'nor shows them')

    t.equal((await store.getUser(ana._id))?.altTextReminder, undefined, 'the reminder is on unless turned off')
    await store.transaction((tx) => tx.updateProfile(ana._id, { altTextReminder: false }, at(10)))
    t.equal((await store.getUser(ana._id))?.altTextReminder, false, 'turned off')
    await store.transaction((tx) => tx.updateProfile(ana._id, { bio: 'still off' }, at(11)))
    t.equal((await store.getUser(ana._id))?.altTextReminder, false, 'an edit of something else keeps it')
    await store.transaction((tx) => tx.updateProfile(ana._id, { altTextReminder: true }, at(12)))
    t.equal((await store.getUser(ana._id))?.altTextReminder, undefined, 'on again')
  })
}
