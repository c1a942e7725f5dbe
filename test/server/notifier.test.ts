import t from 'tap'
import { notify } from '../../server/services/notifier.js'
import type { Relation, StoreTx } from '../../server/store/types.js'

/**
 * notify reads whether the recipient hears from the actor only when there is someone else to tell, and
 * takes that answer from its caller where the caller has asked already (alongside a write of its own).
 */
const actor = { _id: 'a', username: 'ada', firstName: 'Ada', lastName: 'A', avatarURL: '' }
const post = { _id: 'p', authorId: 'a', content: 'hello', mediaUrl: '' }
const AT = '2026-11-26T12:00:00.000Z'

function fakeTx(relation: Relation) {
  const calls = { relation: 0, added: 0, counted: 0 }
  const tx = {
    relationBetween: async () => {
      calls.relation++
      return relation
    },
    addNotification: async () => {
      calls.added++
      return 1
    },
    countUnread: async () => {
      calls.counted++
      return 1
    },
    // Nobody here has asked for pushes.
    listPushSubscriptions: async () => [],
    // Nor has anyone a keyword filter.
    listFilters: async () => [],
    emit: () => {},
  } as unknown as StoreTx
  return { tx, calls }
}

const hearing: Relation = { blocks: false, blockedBy: false, mutes: false }
const muting: Relation = { blocks: false, blockedBy: false, mutes: true }

await t.test("one's own action: nothing read, nothing told", async (t) => {
  const { tx, calls } = fakeTx(hearing)
  await notify(tx, actor, actor._id, 'like', { post }, AT)
  t.same(calls, { relation: 0, added: 0, counted: 0 })
})

await t.test('someone else: their relation is read, and they are told', async (t) => {
  const { tx, calls } = fakeTx(hearing)
  await notify(tx, actor, 'r', 'like', { post }, AT)
  // The count the event carries is the one the recipient's list shows, read after the write.
  t.same(calls, { relation: 1, added: 1, counted: 1 })
})

await t.test("the caller's answer is used, not read again: a mute keeps the notification back", async (t) => {
  const { tx, calls } = fakeTx(hearing)
  await notify(tx, actor, 'r', 'like', { post }, AT, muting)
  t.same(calls, { relation: 0, added: 0, counted: 0 })
})
