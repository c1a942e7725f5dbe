import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Two instances on one schema: a direct message written through one reaches its people's streams on the
 * other, each as they see the conversation, and nobody else's; a read through one reaches the reader's
 * streams on the other.
 */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { conversationCalls, nextButNotifications: nextOf } = await import('../helpers/conversations.js')
  const { ConversationUpdatedEventSchema } = await import('../../server/schemas/conversations.js')
  const { PostEventSchema } = await import('../../server/schemas/events.js')
  const { Value } = await import('@sinclair/typebox/value')

  const a = await buildLiveApi(t)
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string })
  const onB = conversationCalls(b.api)
  const onA = conversationCalls(a.api)

  await t.test('a message written through B arrives live on A, to its people alone', async (t) => {
    const [ann, bea, outsider] = [await signup(a.api), await signup(a.api), await signup(a.api)]
    const beaOnA = await a.stream(t, bea)
    const outsiderOnA = await a.stream(t, outsider)
    const annOnA = await a.stream(t, ann)
    const post = await onB.dm(ann, `@${bea.username} through B`)

    const toBea = await nextOf(beaOnA)
    t.equal(toBea.event, 'conversation.updated', "the recipient's stream on A hears it")
    const { conversation } = JSON.parse(toBea.data ?? 'null') as {
      conversation: { unread: number; lastPost: { _id: string } }
    }
    t.ok(Value.Check(ConversationUpdatedEventSchema, { conversation }), 'as its schema says')
    t.equal(conversation.lastPost._id, post._id)
    t.equal(conversation.unread, 1, 'as she sees it')
    const toAnn = JSON.parse((await nextOf(annOnA)).data ?? 'null') as { conversation: { unread: number } }
    t.equal(toAnn.conversation.unread, 0, "and the author's, as he sees it")

    const marker = await b.newPost(ann, 'a public marker, through B')
    const next = await a.expectEvent(t, outsiderOnA, 'post.created', PostEventSchema)
    t.equal(next.post._id, marker._id, "the outsider's stream on A gets the marker first: nothing of the message")
    t.notMatch(outsiderOnA.text, /conversation\./, 'nor any conversation event')
    t.notOk(outsiderOnA.text.includes(`${bea.username} through B`), 'nor its words')

    const beaOnB = await b.stream(t, bea)
    t.equal((await onA.call(bea, 'POST', `/api/conversations/${post.conversationId}/read`)).statusCode, 200)
    const read = await nextOf(beaOnB)
    t.equal(read.event, 'conversation.updated', 'a read through A reaches her stream on B')
    t.equal((JSON.parse(read.data ?? 'null') as { conversation: { unread: number } }).conversation.unread, 0)
    t.equal(await onB.unread(bea), 0, 'and B reads it so')
  })
})
