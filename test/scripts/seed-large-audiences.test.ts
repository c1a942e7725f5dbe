import { Writable } from 'node:stream'
import t from 'tap'
import { generatePeople } from '../../scripts/seed-large/people.js'
import { postStream } from '../../scripts/seed-large/posts.js'
import { ProgressBar } from '../../scripts/seed-large/progress.js'
import { seededRandom } from '../../scripts/seed-large/random.js'

/**
 * `npm run seed:large -- --audiences`, which bench leg 19 compares with the same data set without it: the
 * same posts, a third of them not public, and a followers-only post that mentions someone addressed to them.
 */
const NOW = Date.parse('2026-06-01T00:00:00Z')
const quiet = new ProgressBar(new Writable({ write: (_chunk, _encoding, done) => done() }) as NodeJS.WriteStream)

function posts(audiences: boolean) {
  const random = seededRandom(7)
  const people = generatePeople(random, 300, NOW, quiet)
  const draws = audiences ? seededRandom(7 ^ 0x5eed) : undefined
  return { people, posts: [...postStream(random, people, 3000, NOW, draws)] }
}

const plain = posts(false)
const mixed = posts(true)

await t.test('without --audiences every post is public', async (t) => {
  t.equal(plain.posts.filter((post) => post.visibility !== undefined).length, 0)
})

await t.test('with --audiences the posts are the same but for their audience', async (t) => {
  const strip = ({ visibility: _v, addressed: _a, ...rest }: (typeof mixed.posts)[number]) => rest
  t.same(mixed.posts.map(strip), plain.posts.map(strip))
})

await t.test('a third of them are not public, half unlisted and half for followers only', async (t) => {
  const share = (visibility: string) =>
    mixed.posts.filter((post) => post.visibility === visibility).length / mixed.posts.length
  t.ok(Math.abs(share('unlisted') - 1 / 6) < 0.03, `unlisted ${share('unlisted').toFixed(3)}`)
  t.ok(Math.abs(share('followers') - 1 / 6) < 0.03, `followers only ${share('followers').toFixed(3)}`)
  t.equal(share('direct'), 0, 'no direct messages: they would need conversations')
})

await t.test('a followers-only post that mentions someone is addressed to them', async (t) => {
  const idOf = new Map(mixed.people.users.map((user) => [user.username, user._id]))
  const mentioning = mixed.posts.filter((post) => post.visibility === 'followers' && post.content.startsWith('@'))
  t.ok(mentioning.length > 0, 'some followers-only posts mention someone')
  for (const post of mentioning) {
    const name = post.content.slice(1, post.content.indexOf(' '))
    t.same(post.addressed, [idOf.get(name)], `${post._id} is addressed to @${name}`)
  }
  const others = mixed.posts.filter((post) => post.visibility !== 'followers' || !post.content.startsWith('@'))
  t.equal(others.filter((post) => post.addressed !== undefined).length, 0, 'no other post is addressed')
})
