import { randomBytes } from 'node:crypto'
import t, { type Test } from 'tap'
import { PRESET_AVATARS, defaultAvatarOf } from '../../common/avatars.js'
import type { Post } from '../../server/schemas/posts.js'
import { SearchReplySchema } from '../../server/schemas/search.js'
import { buildApiApp, expectError, expectNoSecrets, expectOk, signup, type SignedUp } from '../helpers/api.js'

/** GET /api/search (docs/api-contract.md §8): people by the beginnings of their names, posts by every word, `#` and `@`, and its 400s. */
let clock = Date.now()
// A second on at every reading of the clock, so posts made one after another never share an instant.
const api = await buildApiApp(t, { options: { now: () => new Date((clock += 1000)) } })
/** Names and words of this run only, so nothing else in the database matches them. */
const run = `k${randomBytes(3).toString('hex')}`

const chloe = await signup(api, { username: `chloe_${run}`, firstName: 'Chloé', lastName: `Bérard${run}` })
const chris = await signup(api, { username: `chris_${run}`, firstName: 'Chris', lastName: `Bernard${run}` })
const ada = await signup(api, { username: `ada.${run}`, firstName: 'Ada', lastName: `Lovelace${run}` })

async function newPost(who: SignedUp, content: string): Promise<Post> {
  const res = await api.as(who.token, {
    method: 'POST',
    url: '/api/posts',
    headers: { prefer: 'return=minimal' },
    payload: { content },
  })
  return (res.json() as { post: Post }).post
}
const [lait, creme, tea, tagged, thanks] = [
  await newPost(ada, `Un café au lait ${run}`),
  await newPost(ada, `CAFE crème ${run}`),
  await newPost(ada, `Tea, not coffee ${run}`),
  await newPost(ada, `#Café du matin ${run}`),
  await newPost(chris, `Merci @chloe_${run} pour le café ${run}`),
] as [Post, Post, Post, Post, Post]

const search = (query: string) => api.app.inject({ method: 'GET', url: `/api/search?${query}` })
async function found(t: Test, query: string) {
  return expectOk(t, await search(query), 200, SearchReplySchema, query)
}
const q = (text: string) => `q=${encodeURIComponent(text)}`
const usernames = async (t: Test, query: string) => (await found(t, query)).users?.map((user) => user.username)
const postIds = async (t: Test, query: string) => (await found(t, query)).posts?.map((post) => post._id)

await t.test(
  'people: by the beginning of a username, first or last name, without regard to case or accents',
  async (t) => {
    t.strictSame(
      await usernames(t, `type=users&${q('CHLO')}`),
      [chloe.username],
      'a first name, upper case, without its accent',
    )
    t.strictSame(await usernames(t, `type=users&${q('chloé')}`), [chloe.username], 'with its accent')
    t.strictSame(await usernames(t, `type=users&${q(`bera`)}`), [chloe.username], 'a last name: Bérard, not Bernard')
    t.strictSame(await usernames(t, `type=users&${q('BÉR')}`), [chloe.username, chris.username], 'both, by username')
    t.strictSame(await usernames(t, `type=users&${q(`ada.${run}`)}`), [ada.username], 'a whole username')
    t.strictSame(
      await usernames(t, `type=users&${q(`chris ber`)}`),
      [chris.username],
      'every word must begin one of the names',
    )
    t.strictSame(await usernames(t, `type=users&${q(`chloe bernard`)}`), [], 'no one is both')
    t.strictSame(await usernames(t, `type=users&${q('hloe')}`), [], 'a word inside a name is no beginning')
  },
)

await t.test(
  'people: a word that begins another adds nothing, and each of the rest needs a name of its own',
  async (t) => {
    t.strictSame(await usernames(t, `type=users&${q('c chris b ber')}`), [chris.username], 'as chris ber')
    t.strictSame(await usernames(t, `type=users&${q('chl chr')}`), [], 'chloé and chris are different words')
    t.strictSame(await usernames(t, `type=users&${q(`a ad ada ${run}`)}`), [ada.username], `ada.${run} is two words`)
    const letters = 'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 ä ö ü é è ß ø å'
    t.strictSame(await usernames(t, `type=users&${q(letters)}`), [], '44 one-letter words: nobody has 38 name words')
  },
)

await t.test('people: @ looks at usernames only, and is what a q starting with @ looks for by default', async (t) => {
  t.strictSame(await usernames(t, `type=users&${q('@CH')}`), [chloe.username, chris.username])
  t.strictSame(await usernames(t, q(`@chloe_${run}`)), [chloe.username], 'no type: people')
  t.strictSame(await usernames(t, `type=users&${q('@bera')}`), [], 'a last name is no username')
  t.strictSame(
    await usernames(t, `type=users&${q('@no such name')}`),
    [],
    'what no username could begin with finds nobody',
  )
  t.strictSame(await usernames(t, `type=users&${q('#café')}`), [], 'a tag finds no people')
})

await t.test('people come as summaries with their bio, and nothing private', async (t) => {
  await api.as(chloe.token, { method: 'POST', url: '/api/users/edit', payload: { bio: 'Café owner' } })
  const res = await search(`type=users&${q('chloe')}`)
  expectNoSecrets(t, res, 'GET /api/search?type=users')
  const { users } = expectOk(t, res, 200, SearchReplySchema)
  t.strictSame(users, [
    {
      _id: chloe.user._id,
      username: chloe.username,
      firstName: 'Chloé',
      lastName: `Bérard${run}`,
      avatarURL: defaultAvatarOf(chloe.username, PRESET_AVATARS),
      bio: 'Café owner',
    },
  ])
  t.notOk('posts' in (res.json() as object), 'the posts envelope is not there')
})

await t.test('posts: every word of q, whole, without regard to case or accents, newest first', async (t) => {
  const cafe = [thanks._id, tagged._id, creme._id, lait._id]
  t.strictSame(await postIds(t, `type=posts&${q(`café ${run}`)}`), cafe)
  t.strictSame(await postIds(t, q(`CAFE ${run}`)), cafe, 'no type: posts; upper case, no accent')
  t.strictSame(await postIds(t, q(`lait café ${run}`)), [lait._id], 'every word must be there')
  t.strictSame(await postIds(t, q(`café tea ${run}`)), [], 'no post has both')
  t.strictSame(await postIds(t, q(`caf ${run}`)), [], 'words match whole')
  t.strictSame(await postIds(t, q(`${run} coffee, tea!`)), [tea._id], 'punctuation is no part of a word')
  const { posts } = await found(t, q(`crème ${run}`))
  t.equal(posts?.[0]?.content, `CAFE crème ${run}`, 'whole posts')
})

await t.test("posts: # finds a tag's posts, @ the posts mentioning a name", async (t) => {
  t.strictSame(await postIds(t, q('#CAFÉ')), [tagged._id], 'the tag, without regard to case')
  t.strictSame(await postIds(t, q('#café du matin')), [], 'a tag is one word')
  t.strictSame(await postIds(t, q('#123')), [], 'digits only are no tag')
  t.strictSame(await postIds(t, `type=posts&${q(`@CHLOE_${run}`)}`), [thanks._id], 'the posts mentioning her')
  t.strictSame(await postIds(t, `type=posts&${q(`@ada.${run}`)}`), [], 'nobody mentions ada')
})

await t.test('pages follow nextCursor without repeats; a cursor of another list is refused', async (t) => {
  const whole = [thanks._id, tagged._id, tea._id, creme._id, lait._id]
  const seen: string[] = []
  let cursor: string | null = null
  for (let page = 0; page < 10; page++) {
    const body = await found(t, `${q(run)}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
    t.ok((body.posts?.length ?? 0) <= 2)
    seen.push(...(body.posts ?? []).map((post) => post._id))
    cursor = body.nextCursor
    if (cursor === null) break
  }
  t.strictSame(seen, whole)
  const people = await found(t, `type=users&${q('ber')}&limit=1`)
  t.strictSame(
    people.users?.map((user) => user.username),
    [chloe.username],
  )
  const next = await found(t, `type=users&${q('ber')}&limit=1&cursor=${people.nextCursor}`)
  t.strictSame(
    next.users?.map((user) => user.username),
    [chris.username],
  )
  t.equal(next.nextCursor, null)
  expectError(
    t,
    await search(`${q(run)}&cursor=${people.nextCursor}`),
    400,
    'cursor is invalid',
    'a people cursor for posts',
  )
})

await t.test(
  'q must be 1 to 100 characters and not blank, type posts or users: each a 400 naming the field',
  async (t) => {
    expectError(t, await search(''), 400, 'q is required')
    for (const [query, field] of [
      ['q=', /^q /],
      [q('x'.repeat(101)), /^q /],
      [`${q('café')}&type=people`, /^type /],
      [`${q('café')}&limit=0`, /^limit /],
      [`${q('café')}&limit=101`, /^limit /],
      [`${q('café')}&cursor=${encodeURIComponent('not a cursor!')}`, /^cursor /],
    ] as const) {
      const res = await search(query)
      t.equal(res.statusCode, 400, `${query}: 400`)
      t.match((res.json() as { errors: string[] }).errors[0], field, `${query}: names the field`)
    }
    expectError(t, await search(q('   ')), 400, 'q must not be blank')
    t.equal((await search(q('x'.repeat(100)))).statusCode, 200, '100 characters are fine')
    t.strictSame(
      await postIds(t, `${q(`café ${run}`)}&sort=whatever`),
      [thanks._id, tagged._id, creme._id, lait._id],
      'an unknown field is ignored',
    )
    t.strictSame(await postIds(t, q('!!!')), [], 'a q with no word finds nothing')
  },
)
