import { Create, Delete, Note, PUBLIC_COLLECTION, Tombstone, Update } from '@fedify/fedify'
import t from 'tap'
import { signup } from '../helpers/api.js'
import { eventually, postSigned, serveHttps, signingActor, startInstance } from '../helpers/federation-instances.js'
import { call } from '../helpers/moderation.js'

/**
 * Only a remote comment's author changes it (DECISIONS §14), on whichever store the suite runs: Mia and
 * Eve share a server; Mia's reply to Bob's post is her comment on B, and Eve's Update or Delete of Mia's
 * note, signed by Eve and naming her as its author, changes nothing; Mia's own do.
 */

await t.test('someone else’s Update or Delete of a remote comment changes nothing', async (t) => {
  const b = await startInstance(t, 1)
  const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })
  const written = await call(b, bob.token, 'POST', '/api/posts', { postData: { content: 'Say something' } })
  const postId = written.json<{ post: { _id: string } }>().post._id
  const documents = new Map<string, string>()
  const { origin } = await serveHttps(t, 2, (req, res) => {
    const document = documents.get(req.url ?? '')
    if (document) res.writeHead(200, { 'content-type': 'application/activity+json' }).end(document)
    else res.writeHead(404).end()
  })
  const [mia, eve] = [await signingActor(origin, 'mia'), await signingActor(origin, 'eve')]
  for (const actor of [mia, eve]) documents.set(actor.id.pathname, JSON.stringify(actor.document))
  const send = (from: typeof mia, activity: Parameters<typeof postSigned>[2]) => postSigned(b, from, activity)
  const comments = () =>
    call(b, bob.token, 'GET', `/api/comments/${postId}`).then(
      (r) => r.json<{ comments: { text: string }[] }>().comments,
    )
  const noteId = new URL(`${mia.id.href}/notes/1`)
  const noteBy = (author: URL, content: string) =>
    new Note({
      id: noteId,
      attribution: author,
      to: PUBLIC_COLLECTION,
      content,
      replyTarget: new URL(`${b.origin}/ap/posts/${postId}`),
    })

  t.equal(
    await send(
      mia,
      new Create({ id: new URL(`${noteId.href}#c`), actor: mia.id, object: noteBy(mia.id, '<p>Hi Bob</p>') }),
    ),
    202,
  )
  const shown = await eventually(comments, (list) => list.length === 1)
  t.same(
    shown.map((comment) => comment.text),
    ['Hi Bob'],
    'Mia’s reply is her comment on B',
  )

  const forgedUpdate = new Update({
    id: new URL(`${eve.id.href}#u`),
    actor: eve.id,
    object: noteBy(eve.id, '<p>Eve was here</p>'),
  })
  t.equal(await send(eve, forgedUpdate), 202, 'the inbox takes Eve’s signed Update of Mia’s note')
  const forgedDelete = new Delete({
    id: new URL(`${eve.id.href}#d`),
    actor: eve.id,
    object: new Tombstone({ id: noteId }),
  })
  t.equal(await send(eve, forgedDelete), 202, 'and her signed Delete of it')
  await new Promise((resolve) => setTimeout(resolve, 1500))
  t.same(
    (await comments()).map((comment) => comment.text),
    ['Hi Bob'],
    'but Mia’s comment stays as she wrote it',
  )

  await send(
    mia,
    new Update({ id: new URL(`${noteId.href}#u`), actor: mia.id, object: noteBy(mia.id, '<p>Hi again</p>') }),
  )
  const edited = await eventually(comments, (list) => list[0]?.text === 'Hi again')
  t.same(
    edited.map((comment) => comment.text),
    ['Hi again'],
    'Mia’s own Update changes it',
  )
  await send(mia, new Delete({ id: new URL(`${noteId.href}#d`), actor: mia.id, object: new Tombstone({ id: noteId }) }))
  t.same(await eventually(comments, (list) => list.length === 0), [], 'and her own Delete removes it')
})
