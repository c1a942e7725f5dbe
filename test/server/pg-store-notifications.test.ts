import { randomUUID } from 'node:crypto'
import t from 'tap'
import type { NotificationRecord, PostRecord, Store, StoreTx } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * The notification operations run on both stores, step by step from the same database: each step must
 * answer the same (counts, refusals, who lost an unread one), and afterwards both hold the same lists.
 */
const skip = await skipWithoutPostgres()

const at = (n: number) => new Date(Date.UTC(2026, 5, 1, 0, n)).toISOString()

function script(database: ReturnType<typeof uuidDatabase>) {
  const [a, b, c] = database.users.map((user) => user._id) as [string, string, string]
  const withComment = database.posts.find((post) => post.comments.length > 0) as PostRecord
  const other = database.posts.find((post) => post._id !== withComment._id) as PostRecord
  const commentId = withComment.comments[0]?._id as string
  const note = (n: number, fields: Partial<NotificationRecord>): NotificationRecord => ({
    _id: randomUUID(),
    type: 'like',
    recipientId: a,
    actorId: b,
    postId: withComment._id,
    createdAt: at(n),
    read: false,
    ...fields,
  })
  const like = note(1, {})
  const follow = note(2, { type: 'follow', postId: undefined })
  delete (follow as { postId?: string }).postId
  const commented = note(3, { type: 'comment', actorId: c, commentId })
  const mention = note(4, { type: 'mention', recipientId: b, actorId: c, postId: other._id })
  const tie = [note(5, { actorId: c, postId: other._id }), note(5, { type: 'mention', actorId: c, postId: other._id })]
  const steps: [string, (tx: StoreTx) => Promise<unknown>, unknown][] = [
    ['add a like', (tx) => tx.addNotification(like), 1],
    ['the same like again, under another id', (tx) => tx.addNotification({ ...like, _id: randomUUID() }), undefined],
    ['a follow', (tx) => tx.addNotification(follow), 2],
    ['a comment', (tx) => tx.addNotification(commented), 3],
    ['a mention, to someone else', (tx) => tx.addNotification(mention), 1],
    [
      'two at one instant',
      async (tx) => [
        await tx.addNotification(tie[0] as NotificationRecord),
        await tx.addNotification(tie[1] as NotificationRecord),
      ],
      [4, 5],
    ],
    ['an unknown recipient', (tx) => tx.addNotification(note(6, { recipientId: randomUUID() })), undefined],
    ['an unknown post', (tx) => tx.addNotification(note(6, { postId: randomUUID() })), undefined],
    [
      'a comment of another post',
      (tx) => tx.addNotification(note(6, { type: 'comment', postId: other._id, commentId })),
      undefined,
    ],
    ['an id that is no uuid', (tx) => tx.addNotification(note(6, { actorId: 'u1' })), undefined],
    [
      'a transaction reads its own',
      async (tx) => [
        await tx.addNotification(note(7, { actorId: a, recipientId: b, postId: other._id })),
        await tx.countUnread(b),
      ],
      [2, 2],
    ],
    [
      'mark read up to the follow',
      async (tx) => tx.markNotificationsRead(a, await tx.getNotification(follow._id)),
      { marked: 2, unread: 3 },
    ],
    [
      'again: nothing more',
      async (tx) => tx.markNotificationsRead(a, await tx.getNotification(follow._id)),
      { marked: 0, unread: 3 },
    ],
    ['take back a read one: no count fell', (tx) => tx.removeNotifications({ identity: like }), []],
    ['take back one never made', (tx) => tx.removeNotifications({ identity: { ...like, actorId: c } }), []],
    ['take back the mention', (tx) => tx.removeNotifications({ identity: mention }), [{ recipientId: b, unread: 1 }]],
    ['take back those of a comment', (tx) => tx.removeNotifications({ commentId }), [{ recipientId: a, unread: 2 }]],
    [
      'add and take back in one go',
      async (tx) => [
        await tx.addNotification(note(8, { actorId: c })),
        await tx.removeNotifications({ postId: withComment._id }),
      ],
      [3, [{ recipientId: a, unread: 2 }]],
    ],
    ['mark all read', (tx) => tx.markNotificationsRead(a, undefined), { marked: 2, unread: 0 }],
    [
      'take back those of a post, read ones only',
      (tx) => tx.removeNotifications({ postId: other._id }),
      [{ recipientId: b, unread: 0 }],
    ],
    ['counts of unknown people', (tx) => tx.countUnread(randomUUID()), 0],
  ]
  return { steps, people: [a, b, c] }
}

await t.test(
  'every notification operation answers as the embedded store does, and leaves the same lists',
  { skip },
  async (t) => {
    const database = uuidDatabase({ users: 4, posts: 6 })
    const stores = await openBothStores(t, database)
    const { steps, people } = script(database)
    for (const { name, store } of stores) {
      for (const [label, step, expected] of steps)
        t.strictSame(await store.transaction(step), expected, `${name}: ${label}`)
    }
    const [embedded, pg] = stores.map((opened) => opened.store) as [Store, Store]
    for (const person of people) {
      const whole = (await embedded.listNotifications(person, {})).items
      t.strictSame((await pg.listNotifications(person, {})).items, whole, 'the same notifications, newest first')
      t.equal(await pg.countUnread(person), await embedded.countUnread(person), 'the same count')
      const paged: NotificationRecord[] = []
      let cursor: string | undefined
      do {
        const page = await pg.listNotifications(person, { limit: 1, ...(cursor ? { cursor } : {}) })
        paged.push(...page.items)
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      t.strictSame(paged, whole, 'page by page')
    }
    t.ok((await embedded.listNotifications(people[0] as string, {})).items.length > 0, 'some are left to compare')
  },
)

await t.test(
  'deleting a post or comment with unread notifications through a failed transaction changes nothing',
  { skip },
  async (t) => {
    const database = uuidDatabase({ users: 3, posts: 2 })
    const [a, b] = database.users.map((user) => user._id) as [string, string]
    const postId = database.posts[0]?._id as string
    for (const { name, store, events } of await openBothStores(t, database)) {
      await store.transaction((tx) =>
        tx.addNotification({
          _id: randomUUID(),
          type: 'like',
          recipientId: a,
          actorId: b,
          postId,
          createdAt: at(1),
          read: false,
        }),
      )
      const failure = new Error('refused half way')
      await t.rejects(
        store.transaction(async (tx) => {
          await tx.removeNotifications({ postId })
          await tx.markNotificationsRead(a, undefined)
          throw failure
        }),
        failure,
      )
      t.equal(await store.countUnread(a), 1, `${name}: still unread`)
      t.equal((await store.listNotifications(a, {})).items.length, 1, `${name}: still there`)
      t.strictSame(await events(), [], `${name}: no event`)
    }
  },
)
