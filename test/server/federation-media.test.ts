import { Create, Document, Note, signRequest } from '@fedify/fedify'
import t from 'tap'
import { signup } from '../helpers/api.js'
import { eventually, serveActor, startInstance } from '../helpers/federation-instances.js'
import { followedPost } from '../helpers/federation-pair.js'
import { call } from '../helpers/moderation.js'

/**
 * A post's images, up to 4, both ways (DECISIONS §14), on whichever store the suite runs: a post of A
 * with three images reaches B with all three and their descriptions, as Documents of its note with their
 * media type; an edit to two follows it; a note with more than 4 images keeps its first 4.
 */

interface ShownImage {
  url: string
  alt: string
  width?: number
  height?: number
}
interface ShownPost {
  _id: string
  url?: string
  media: ShownImage[]
}

const AP = { accept: 'application/activity+json' }
const images = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ url: `https://images.example/${i + 1}.png`, alt: `picture ${i + 1}` }))

await t.test('a post’s images go out as attachments and arrive with their descriptions', async (t) => {
  const { a, b, ann, bob } = await followedPost(t, 'Photos coming')
  const written = await call(a, ann.token, 'POST', '/api/posts', { postData: { content: 'Three', media: images(3) } })
  t.equal(written.statusCode, 201, 'Ann writes a post with three images')
  const post = written.json<{ post: ShownPost }>().post
  const page = `${a.origin}/post-detail/${post._id}`
  const note = await a.app.inject({ method: 'GET', url: `/ap/posts/${post._id}`, headers: AP })
  t.match(
    [note.json<{ attachment: unknown }>().attachment].flat(),
    images(3).map(({ url, alt }) => ({ type: 'Document', mediaType: 'image/png', url, name: alt })),
    'A’s note names each image, its media type and its description',
  )
  const there = (count: number) =>
    eventually(
      () =>
        call(b, bob.token, 'GET', '/api/feed').then((r) =>
          r.json<{ posts: ShownPost[] }>().posts.find((shown) => shown.url === page),
        ),
      (shown) => shown?.media.length === count,
    )
  t.same((await there(3))?.media, images(3), 'B shows all three, in order, with their descriptions')

  const edited = await call(a, ann.token, 'POST', `/api/posts/edit/${post._id}`, { media: images(2) })
  t.equal(edited.statusCode, 201, 'and edits it to two')
  t.same((await there(2))?.media, images(2), 'an edit to two images follows it to B')
})

await t.test('a note with more than 4 images keeps its first 4, with their descriptions and sizes', async (t) => {
  const b = await startInstance(t, 1)
  const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })
  const mia = await serveActor(t, 2, 'mia')
  const bobActor = new URL(`${b.origin}/ap/users/${bob.user._id}`)
  const attachments = [
    new Document({ url: new URL('https://images.example/v.mp4'), mediaType: 'video/mp4', name: 'a film' }),
    ...images(5).map(
      ({ url, alt }, i) =>
        new Document({
          url: new URL(url),
          mediaType: 'image/png',
          name: alt,
          ...(i === 0 ? { width: 640, height: 480 } : {}),
        }),
    ),
  ]
  const noteId = new URL(`${mia.id.href}/notes/1`)
  const note = new Note({ id: noteId, attribution: mia.id, to: bobActor, content: '<p>Look</p>', attachments })
  const create = new Create({ id: new URL(`${noteId.href}#create`), actor: mia.id, to: bobActor, object: note })
  const request = new Request(`${b.origin}/ap/inbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json' },
    body: JSON.stringify(await create.toJsonLd()),
  })
  t.equal((await fetch(await signRequest(request, mia.privateKey, mia.keyId))).status, 202)
  const conversations = await eventually(
    () =>
      call(b, bob.token, 'GET', '/api/conversations').then(
        (r) => r.json<{ conversations: { lastPost: ShownPost }[] }>().conversations,
      ),
    (list) => list.length === 1,
  )
  const [first, ...rest] = images(4)
  t.same(
    conversations[0]?.lastPost.media,
    [{ ...first, width: 640, height: 480 }, ...rest],
    'the first 4 images, the film and the fifth image dropped',
  )
})
