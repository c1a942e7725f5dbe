import t, { type Test } from 'tap'
import { signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import type { SseClient } from '../helpers/sse.js'

/**
 * Keyword filters of `home` on Chirp's own live stream (DECISIONS §15, §17): a new post a reader's filter
 * hides never reaches their stream, one a `warn` filter matches arrives carrying `filtered` as their home
 * feed shows it, and a filter written while the stream is open applies to the next post. Other readers,
 * the author's own posts and filters of other contexts are left alone. On whichever store runs.
 */
const { api, newPost, stream, nextEvent } = await buildLiveApi(t)

interface Created {
  post: { _id: string; content: string; filtered?: { filter: { title: string; filter_action: string } }[] }
}

/** The post.created events of the stream up to the one of `marker`, which is left out. */
async function createdUntil(client: SseClient, marker: string): Promise<Created['post'][]> {
  const seen: Created['post'][] = []
  for (;;) {
    const message = await nextEvent(client)
    if (message.event !== 'post.created') continue
    const { post } = JSON.parse(message.data ?? '{}') as Created
    if (post._id === marker) return seen
    seen.push(post)
  }
}

const addFilter = async (
  t: Test,
  who: SignedUp,
  title: string,
  context: string[],
  action: 'warn' | 'hide',
  keyword: string,
) => {
  const res = await api.as(who.token, {
    method: 'POST',
    url: '/api/v2/filters',
    payload: { title, context, filter_action: action, keywords_attributes: [{ keyword, whole_word: true }] },
  })
  t.equal(res.statusCode, 200, `the filter ${title} is made`)
  return (res.json() as { id: string }).id
}

await t.test('home filters leave out or mark new posts on the reader’s stream only', async (t: Test) => {
  const [alice, bob, carol] = [await signup(api), await signup(api), await signup(api)]
  await addFilter(t, alice, 'Weather', ['home'], 'hide', 'rain')
  await addFilter(t, alice, 'Spoilers', ['home'], 'warn', 'finale')
  await addFilter(t, alice, 'Elsewhere', ['public', 'thread'], 'hide', 'cats')
  const [hers, his] = [await stream(t, alice), await stream(t, carol)]
  const rain = await newPost(bob, 'More rain today')
  const finale = await newPost(bob, 'That finale!')
  const cats = await newPost(bob, 'cats everywhere')
  const own = await newPost(alice, 'I like rain')
  const marker = await newPost(bob, 'done')

  const seen = await createdUntil(hers, marker._id)
  t.same(
    seen.map((post) => post.content),
    [finale.content, cats.content, own.content],
    'the hidden post never reached her; her own and other contexts’ words did',
  )
  t.match(seen[0]?.filtered, [{ filter: { title: 'Spoilers', filter_action: 'warn' }, keyword_matches: ['finale'] }])
  t.equal(seen[1]?.filtered, undefined, 'a post no filter of home matches comes as it is')
  t.equal(seen[2]?.filtered, undefined, 'her own post is never filtered')
  t.notMatch(hers.text, new RegExp(rain._id), 'nothing of the hidden post on her stream')

  const others = await createdUntil(his, marker._id)
  t.same(
    others.map((post) => post.content),
    [rain.content, finale.content, cats.content, own.content],
    'another reader gets every post',
  )
  t.ok(
    others.every((post) => post.filtered === undefined),
    'with nothing of her filters',
  )
  // The home feed's read path agrees with the stream.
  const feed = (await api.as(alice.token, { method: 'GET', url: '/api/feed' })).json() as { posts: Created['post'][] }
  t.notOk(
    feed.posts.some((post) => post._id === rain._id),
    'the home feed leaves the hidden post out too',
  )
})

await t.test('a filter written while the stream is open applies to the very next post', async (t: Test) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  const hers = await stream(t, alice)
  const id = await addFilter(t, alice, 'Sport', ['home'], 'hide', 'goal')
  const goal = await newPost(bob, 'What a goal')
  const first = await newPost(bob, 'first marker')
  t.same(await createdUntil(hers, first._id), [], 'hidden from the first post after the filter')
  t.notMatch(hers.text, new RegExp(goal._id), 'never sent')

  const changed = await api.as(alice.token, {
    method: 'PUT',
    url: `/api/v2/filters/${id}`,
    payload: { filter_action: 'warn' },
  })
  t.equal(changed.statusCode, 200, 'the filter now warns')
  const again = await newPost(bob, 'Another goal')
  const second = await newPost(bob, 'second marker')
  const warned = await createdUntil(hers, second._id)
  t.same(
    warned.map((post) => post._id),
    [again._id],
    'the next post comes',
  )
  t.match(warned[0]?.filtered, [{ filter: { title: 'Sport', filter_action: 'warn' } }], 'marked with the filter')

  t.equal((await api.as(alice.token, { method: 'DELETE', url: `/api/v2/filters/${id}` })).statusCode, 200)
  const last = await newPost(bob, 'Last goal')
  const third = await newPost(bob, 'third marker')
  const plain = await createdUntil(hers, third._id)
  t.same(
    plain.map((post) => [post._id, post.filtered]),
    [[last._id, undefined]],
    'once the filter is gone, posts come as they are',
  )
})
