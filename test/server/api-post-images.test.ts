import t, { type Test } from 'tap'
import { PostUpdatedEventSchema } from '../../server/schemas/events.js'
import { PostWriteReplySchema, type Post } from '../../server/schemas/posts.js'
import { UserReplySchema } from '../../server/schemas/users.js'
import { expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { imageBy } from '../helpers/moderation.js'

/**
 * Up to four images a post, each with its description (DECISIONS §15, §17): `media` in and out, the
 * first mirrored as `mediaUrl` and `mediaAlt` for clients of the original mock, a fifth refused; and the
 * alt-text reminder, a setting kept with the account. On whichever store runs.
 */
const { api, stream, expectEvent } = await buildLiveApi(t)

const create = (who: SignedUp, postData: object) =>
  api.as(who.token, { method: 'POST', url: '/api/posts', payload: { postData } })
const edit = (who: SignedUp, id: string, postData: object) =>
  api.as(who.token, { method: 'POST', url: `/api/posts/edit/${id}`, payload: { postData } })
/** The post a write made or changed, from its 201. */
function postOf(t: Test, res: Awaited<ReturnType<typeof create>>): Post {
  const { post } = expectOk(t, res, 201, PostWriteReplySchema)
  if (!post) throw new Error('a write answers its post')
  return post
}
const read = async (id: string) =>
  ((await api.as(undefined, { method: 'GET', url: `/api/posts/${id}` })).json() as { post: Post }).post
const postCount = async (who: SignedUp) =>
  (
    (await api.as(who.token, { method: 'GET', url: `/api/posts/user/${who.user.username}` })).json() as {
      posts: Post[]
    }
  ).posts.length

await t.test('a post carries up to four images, in order, each with its description and size', async (t) => {
  const ana = await signup(api)
  const urls = [
    await imageBy(api, ana.token),
    await imageBy(api, ana.token),
    await imageBy(api, ana.token),
    await imageBy(api, ana.token),
  ]
  const media = urls.map((url, i) => (i === 2 ? { url } : { url, alt: `picture ${i + 1}` }))
  const post = postOf(t, await create(ana, { content: 'four of them', media }))
  t.strictSame(
    post.media.map((image) => [image.url, image.alt]),
    urls.map((url, i) => [url, i === 2 ? '' : `picture ${i + 1}`]),
    "each image with its description, '' where it has none",
  )
  t.ok(
    post.media.every((image) => Number.isInteger(image.width) && Number.isInteger(image.height)),
    'each with its pixel size',
  )
  t.match(post, { mediaUrl: urls[0], mediaAlt: 'picture 1', type: 'image' }, 'the first, as the original mock read it')
  t.strictSame((await read(post._id)).media, post.media, 'read back the same')
  const list = (await api.as(ana.token, { method: 'GET', url: '/api/posts?compact=1&limit=5' })).json() as {
    posts: Post[]
  }
  t.strictSame(list.posts.find((each) => each._id === post._id)?.media, post.media, 'compact lists carry them too')

  const plain = postOf(t, await create(ana, { content: 'words alone' }))
  t.strictSame(plain.media, [], 'a post without images has none')
  const old = { post: postOf(t, await create(ana, { mediaUrl: urls[0], mediaAlt: 'the one' })) }
  t.strictSame(
    old.post.media.map((image) => [image.url, image.alt]),
    [[urls[0], 'the one']],
    "the original mock's one image is a list of one",
  )
})

await t.test('a fifth image is a 400 "A post can have at most 4 images." and nothing is posted', async (t) => {
  const bo = await signup(api)
  const url = await imageBy(api, bo.token)
  const before = await postCount(bo)
  const five = Array.from({ length: 5 }, () => ({ url, alt: 'x' }))
  expectError(t, await create(bo, { content: 'too many', media: five }), 400, 'A post can have at most 4 images.')
  const post = postOf(t, await create(bo, { content: 'fine', media: five.slice(0, 4) }))
  expectError(t, await edit(bo, post._id, { media: five }), 400, 'A post can have at most 4 images.', 'on edit too')
  t.equal((await read(post._id)).media.length, 4, 'the edit changed nothing')
  t.equal(await postCount(bo), before + 1, 'only the post of four was made')
})

await t.test('bad images are a 400 and change nothing', async (t) => {
  const cy = await signup(api)
  const url = await imageBy(api, cy.token)
  const cases: [object, string][] = [
    [
      { media: [{ url }, { url: 'http://plain.example/a.png' }] },
      'mediaUrl must be an uploaded /media/ file or an https URL',
    ],
    [{ media: [{ url: '' }] }, 'mediaUrl must be an uploaded /media/ file or an https URL'],
    [{ media: [] }, 'A post needs content or media'],
  ]
  for (const [postData, message] of cases) {
    expectError(t, await create(cy, postData), 400, message, JSON.stringify(postData))
  }
  const long = await create(cy, { media: [{ url, alt: 'a'.repeat(1001) }] })
  t.equal(long.statusCode, 400, 'a description of more than 1,000 characters')
  t.equal((await create(cy, { media: [{ url, alt: 7 }] })).statusCode, 400, 'no coercion')
  t.equal(await postCount(cy), 0, 'nothing posted')
})

await t.test('an edit with media replaces every image; one without keeps the rest', async (t) => {
  const di = await signup(api)
  const [a, b, c] = [await imageBy(api, di.token), await imageBy(api, di.token), await imageBy(api, di.token)]
  const post = postOf(
    t,
    await create(di, { content: 'three', media: [{ url: a, alt: 'A' }, { url: b, alt: 'B' }, { url: c }] }),
  )
  const watching = await stream(t, di)
  const changed = { post: postOf(t, await edit(di, post._id, { media: [{ url: c, alt: 'C now' }, { url: a }] })) }
  t.strictSame(
    changed.post.media.map((image) => [image.url, image.alt]),
    [
      [c, 'C now'],
      [a, ''],
    ],
  )
  const told = await expectEvent(t, watching, 'post.updated', PostUpdatedEventSchema)
  t.strictSame(
    told.media?.map((image) => image.url),
    [c, a],
    'post.updated carries the images',
  )
  const text = { post: postOf(t, await edit(di, post._id, { content: 'new words' })) }
  t.strictSame(
    text.post.media.map((image) => [image.url, image.alt]),
    [
      [c, 'C now'],
      [a, ''],
    ],
    'an edit of the text alone keeps the images',
  )
  const first = { post: postOf(t, await edit(di, post._id, { mediaUrl: b })) }
  t.strictSame(
    first.post.media.map((image) => [image.url, image.alt]),
    [
      [b, ''],
      [a, ''],
    ],
    "the original mock's mediaUrl changes the first image and keeps the rest",
  )
  const none = { post: postOf(t, await edit(di, post._id, { mediaUrl: '' })) }
  t.strictSame(none.post.media, [], 'and taking it away takes them all')
})

await t.test('the alt-text reminder is on by default and kept with the account', async (t) => {
  const ed = await signup(api)
  const own = async () =>
    expectOk(t, await api.as(ed.token, { method: 'GET', url: `/api/users/${ed.user.username}` }), 200, UserReplySchema)
      .user
  t.equal((await own()).altTextReminder, true, 'on for a new account')
  const off = await api.as(ed.token, {
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData: { altTextReminder: false } },
  })
  t.equal(expectOk(t, off, 201, UserReplySchema).user.altTextReminder, false)
  t.equal((await own()).altTextReminder, false, 'kept')
  const other = await signup(api)
  const seen = (await api.as(other.token, { method: 'GET', url: `/api/users/${ed.user.username}` })).json() as {
    user: Record<string, unknown>
  }
  t.notOk('altTextReminder' in seen.user, "nobody else's record carries it")
  const bad = await api.as(ed.token, {
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData: { altTextReminder: 'no' } },
  })
  t.equal(bad.statusCode, 400, 'no coercion')
  await api.as(ed.token, { method: 'POST', url: '/api/users/edit', payload: { userData: { altTextReminder: true } } })
  t.equal((await own()).altTextReminder, true, 'on again')
})
