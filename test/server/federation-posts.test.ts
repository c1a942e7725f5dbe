import { Delete, Tombstone, signRequest } from '@fedify/fedify'
import t from 'tap'
import { safeHtml } from '../../server/services/remote-posts.js'
import { signup, type SignedUp } from '../helpers/api.js'
import { eventually, serveActor, startInstance, type Instance } from '../helpers/federation-instances.js'
import { call } from '../helpers/moderation.js'

/**
 * Posts both ways between two Chirp instances on this machine over https (DECISIONS §14), on whichever
 * store the suite runs: A's person writes, B's person who follows her sees the post as a remote one in
 * the home feed and on her profile, addressed by its audience; edits and deletions follow, and only the
 * note's author may change it.
 */
const [a, b] = [await startInstance(t, 0), await startInstance(t, 1)]

interface ShownPost {
  _id: string
  content: string
  remote?: true
  url?: string
  contentHtml?: string
  spoilerText?: string
  visibility: string
  mediaUrl: string
  mediaAlt?: string
  username: string
}

const AP = { accept: 'application/activity+json' }
const handle = (person: SignedUp, instance: Instance) => `${person.username}@${instance.host}`

const ann = await signup(a, { firstName: 'Ann', lastName: 'Lee' })
const cara = await signup(a, { firstName: 'Cara', lastName: 'Near' })
const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })

async function feedOf(instance: Instance, person: SignedUp): Promise<ShownPost[]> {
  const res = await call(instance, person.token, 'GET', '/api/feed')
  return res.json<{ posts: ShownPost[] }>().posts
}

async function write(postData: Record<string, unknown>) {
  const res = await call(a, ann.token, 'POST', '/api/posts', { postData })
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`)
  return res.json<{ post: ShownPost }>().post
}

/** The post of `note` as B keeps it, once it arrived. */
const arrived = (noteOf: string) =>
  eventually(
    () => feedOf(b, bob),
    (posts) => posts.some((post) => post.url === noteOf),
  ).then((posts) => posts.find((post) => post.url === noteOf))

const pageOf = (post: ShownPost) => `${a.origin}/post-detail/${post._id}`

await t.test('Bob of B follows Ann of A', async (t) => {
  const annThere = await call(b, bob.token, 'GET', `/api/users/${handle(ann, a)}`)
  const id = annThere.json<{ user: { _id: string } }>().user._id
  await call(b, bob.token, 'POST', `/api/users/follow/${id}`, {})
  const following = await eventually(
    () =>
      call(b, bob.token, 'GET', `/api/users/${bob.username}`).then((r) => r.json<{ user: { following: unknown[] } }>()),
    (body) => body.user.following.length === 1,
  )
  t.equal(following.user.following.length, 1)
})

let first: ShownPost

await t.test('a public post reaches the follower on B as a remote post', async (t) => {
  const post = await write({
    content: 'Hello #fediverse, says @' + cara.username + ' too <b>bold</b>\n\nsecond paragraph',
    spoilerText: 'greetings',
    mediaUrl: 'https://images.example/cat.png',
    mediaAlt: 'a cat asleep',
  })
  const there = await arrived(pageOf(post))
  t.ok(there, 'in Bob’s home feed on B')
  if (!there) return
  first = there
  t.match(there, {
    remote: true,
    url: pageOf(post),
    content: `Hello #fediverse, says @${cara.username} too <b>bold</b>\n\nsecond paragraph`,
    spoilerText: 'greetings',
    visibility: 'public',
    mediaUrl: 'https://images.example/cat.png',
    mediaAlt: 'a cat asleep',
    username: handle(ann, a),
  })
  t.match(there.contentHtml, /^<p>Hello <a href="[^"]+\/tag\/fediverse" class="mention hashtag"[^>]*>#<span>fediverse/)
  t.match(there.contentHtml, /&lt;b&gt;bold&lt;\/b&gt;/, 'her text stays text')
  t.match(there.contentHtml, /class="u-url mention"/, 'the mention is a link')
  const listed = await call(b, bob.token, 'GET', `/api/posts/user/${handle(ann, a)}`)
  t.equal(listed.statusCode, 200, listed.body)
  t.ok(
    listed.json<{ posts: ShownPost[] }>().posts.some((shown) => shown._id === there._id),
    'and on her profile on B',
  )
  const note = await a.app.inject({ method: 'GET', url: `/ap/posts/${post._id}`, headers: AP })
  const shown = note.json<{ type: string; summary: string; tag: unknown; attachment: unknown; content: string }>()
  t.match(shown, { type: 'Note', summary: 'greetings' }, 'A serves the note, its content warning as summary')
  t.match([shown.tag].flat(), [
    { type: 'Mention', href: `${a.origin}/ap/users/${cara.user._id}`, name: `@${cara.username}@${a.host}` },
    { type: 'Hashtag', name: '#fediverse' },
  ])
  t.match([shown.attachment].flat(), [
    { type: 'Document', name: 'a cat asleep', url: 'https://images.example/cat.png' },
  ])
})

await t.test('followers-only reaches the follower; a direct post to someone of A does not leave A', async (t) => {
  const direct = await write({ content: `just for @${cara.username}`, visibility: 'direct' })
  const followers = await write({ content: 'for my followers', visibility: 'followers' })
  const there = await arrived(pageOf(followers))
  t.equal(there?.visibility, 'followers')
  const feed = await feedOf(b, bob)
  t.notOk(
    feed.some((post) => post.url === pageOf(direct)),
    'the direct post, sent before the followers-only one, never came',
  )
})

await t.test('an edit and a deletion follow the post to B', async (t) => {
  const post = await write({ content: 'first words' })
  const there = await arrived(pageOf(post))
  const edited = await call(a, ann.token, 'POST', `/api/posts/edit/${post._id}`, {
    postData: { content: 'second words' },
  })
  t.ok(edited.statusCode < 300, 'edited on A')
  const after = await eventually(
    () => call(b, bob.token, 'GET', `/api/posts/${there?._id}`).then((r) => r.json<{ post: ShownPost }>()),
    (body) => body.post.content === 'second words',
  )
  t.equal(after.post.content, 'second words', 'the edit reached B')
  t.equal(after.post.contentHtml, '<p>second words</p>')
  const removed = await call(a, ann.token, 'DELETE', `/api/posts/${post._id}`)
  t.ok(removed.statusCode < 300, 'deleted on A')
  const gone = await eventually(
    () => call(b, bob.token, 'GET', `/api/posts/${there?._id}`),
    (res) => res.statusCode === 404,
  )
  t.equal(gone.statusCode, 404, 'the deletion reached B')
})

await t.test('a Delete by someone who did not write the note changes nothing', async (t) => {
  const { id: mallory, keyId, privateKey } = await serveActor(t, 2, 'mallory')
  const noteId = new URL(`${a.origin}/ap/posts/${first.url?.split('/').pop()}`)
  const forged = new Delete({
    id: new URL(`${mallory.href}#deletes/1`),
    actor: mallory,
    object: new Tombstone({ id: noteId }),
  })
  const request = new Request(`${b.origin}/ap/inbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json' },
    body: JSON.stringify(await forged.toJsonLd()),
  })
  const sent = await fetch(await signRequest(request, privateKey, keyId))
  t.equal(sent.status, 202, 'Mallory’s own signature is good: the inbox takes it')
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const still = await call(b, bob.token, 'GET', `/api/posts/${first._id}`)
  t.equal(still.statusCode, 200, 'but Ann’s post stays on B')
})

await t.test('remote HTML keeps only links, paragraphs, line breaks and spans', async (t) => {
  t.equal(
    safeHtml(
      '<p onclick="x()">Hi <script>steal()</script><b>there</b><br><a href="javascript:alert(1)">x</a> ' +
        '<a href="https://ok.example/" class="mention evil" style="color:red">ok</a><img src=x onerror=y>' +
        '<span class="h-card invisible">s</span></p>',
    ),
    '<p>Hi there<br /><a rel="nofollow noopener noreferrer">x</a> <a href="https://ok.example/" class="mention" rel="nofollow noopener noreferrer">ok</a>' +
      '<span class="h-card invisible">s</span></p>',
  )
})
