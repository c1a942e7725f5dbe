import t, { type Test } from 'tap'
import {
  NotificationCreatedEventSchema,
  NotificationReadEventSchema,
  PostEventSchema,
  PostLikedEventSchema,
} from '../../server/schemas/events.js'
import { expectNoSecrets, signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import type { SseClient } from '../helpers/sse.js'

/** notification.created and notification.read (docs/api-contract.md §8): on the recipient's own streams only, as bookmark.* are. */
const { api, write, newPost, stream, nextEvent, expectEvent } = await buildLiveApi(t)

/** The next event must be `name`; its data is not looked at. */
async function expect(t: Test, client: SseClient, name: string) {
  t.equal((await nextEvent(client)).event, name, `then ${name}`)
}

/** A public marker after the private events: the other user's next event must be it, not one of them. */
async function expectNothingPrivate(t: Test, author: SignedUp, theirs: SseClient) {
  const marker = await newPost(author, 'a public marker')
  t.equal((await expectEvent(t, theirs, 'post.created', PostEventSchema)).post._id, marker._id, 'the marker came next')
  t.notMatch(theirs.text, /notification\./, 'nothing about notifications on their stream')
}

await t.test(
  "a like's notification reaches the author's streams with the unread count, and no one else's",
  async (t) => {
    const [alice, bob, carol] = [await signup(api), await signup(api), await signup(api)]
    const post = await newPost(alice, 'Watch this')
    const hers = await stream(t, alice)
    const his = await stream(t, bob)
    await write(carol, 'POST', `/api/posts/like/${post._id}`)
    await expectEvent(t, hers, 'post.liked', PostLikedEventSchema)
    const created = await expectEvent(t, hers, 'notification.created', NotificationCreatedEventSchema)
    t.match(created, {
      type: 'like',
      actor: { _id: carol.user._id },
      post: { _id: post._id, content: 'Watch this' },
      read: false,
      unread: 1,
    })
    const listed = (await api.as(alice.token, { method: 'GET', url: '/api/notifications' })).json() as {
      notifications: { _id: string }[]
    }
    t.equal(created._id, listed.notifications[0]?._id, 'the notification the list holds')
    expectNoSecrets(t, hers.text, "the author's stream")
    await expect(t, his, 'post.liked')
    await expectNothingPrivate(t, alice, his)
  },
)

await t.test(
  "notification.read tells the reader's streams the new count, after marking read and after an unread one is taken back",
  async (t) => {
    const [alice, bob, carol] = [await signup(api), await signup(api), await signup(api)]
    const post = await newPost(alice, 'Two likes')
    await write(bob, 'POST', `/api/posts/like/${post._id}`)
    await write(carol, 'POST', `/api/posts/like/${post._id}`)
    const hers = await stream(t, alice)
    const his = await stream(t, bob)
    await write(bob, 'POST', `/api/posts/dislike/${post._id}`)
    await expect(t, hers, 'post.liked')
    t.strictSame(
      await expectEvent(t, hers, 'notification.read', NotificationReadEventSchema),
      { unread: 1 },
      'an unlike: one unread left',
    )
    await api.as(alice.token, { method: 'POST', url: '/api/notifications/read', payload: {} })
    t.strictSame(
      await expectEvent(t, hers, 'notification.read', NotificationReadEventSchema),
      { unread: 0 },
      'marked read: none left',
    )
    await api.as(alice.token, { method: 'POST', url: '/api/notifications/read', payload: {} })
    await write(carol, 'POST', `/api/posts/dislike/${post._id}`)
    await expect(t, hers, 'post.liked')
    await expect(t, his, 'post.liked')
    await expect(t, his, 'post.liked')
    await expectNothingPrivate(t, alice, his)
    await expect(t, hers, 'post.created')
    t.equal(
      hers.text.match(/event: notification\.read/g)?.length,
      2,
      'no news when nothing changed: marking nothing read, or taking back a read one',
    )
  },
)

await t.test('a follow and a mention notify live too', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  const hers = await stream(t, alice)
  await write(bob, 'POST', `/api/users/follow/${alice.user._id}`)
  await expect(t, hers, 'user.followed')
  t.match(await expectEvent(t, hers, 'notification.created', NotificationCreatedEventSchema), {
    type: 'follow',
    unread: 1,
  })
  await newPost(bob, `@${alice.username} hello`)
  await expect(t, hers, 'post.created')
  t.match(await expectEvent(t, hers, 'notification.created', NotificationCreatedEventSchema), {
    type: 'mention',
    unread: 2,
  })
})
