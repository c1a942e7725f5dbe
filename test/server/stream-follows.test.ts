import t from 'tap'
import type { EventAudience } from '../../server/schemas/events.js'
import { createStreamFollows } from '../../server/plugins/stream-follows.js'
import type { LoggedEvent } from '../../server/store/types.js'

/**
 * Whom each reader follows, as the hub keeps it for their streams (DECISIONS §12): read once, then kept
 * by the follow events of the log, including those that arrive while the first read is under way.
 */
const closed: EventAudience = { authorId: 'author', visibility: 'followers' }
let id = 0
const follow = (name: 'user.followed' | 'user.unfollowed', follower: string, followee: string): LoggedEvent => ({
  id: ++id,
  name,
  data: JSON.stringify({ user: { _id: follower }, followUser: { _id: followee } }),
  to: undefined,
})

/** A read of the reader's follows that answers when the test says. */
function pendingRead() {
  let answer: (people: readonly string[]) => void = () => {}
  let reads = 0
  const load = () => {
    reads++
    return new Promise<readonly string[]>((resolve) => (answer = resolve))
  }
  return { load, answer: (people: readonly string[]) => answer(people), reads: () => reads }
}

await t.test('follows and unfollows from the log change what a reader may read, at once', async (t) => {
  const follows = createStreamFollows(async () => [])
  await follows.watch('reader')
  t.notOk(follows.mayRead('reader', closed), 'not a follower yet')
  t.ok(follows.mayRead('reader', undefined), 'an open post: anyone')
  follows.apply(follow('user.followed', 'reader', 'author'))
  t.ok(follows.mayRead('reader', closed), 'a follower now')
  follows.apply(follow('user.unfollowed', 'reader', 'author'))
  t.notOk(follows.mayRead('reader', closed), 'no longer')
  follows.apply(follow('user.followed', 'someone', 'author'))
  t.notOk(follows.mayRead('reader', closed), "someone else's follow is theirs")
})

await t.test('an unfollow that arrives during the first read is applied over it', async (t) => {
  const read = pendingRead()
  const follows = createStreamFollows(read.load)
  const first = follows.watch('reader')
  const second = follows.watch('reader')
  follows.apply(follow('user.unfollowed', 'reader', 'author'))
  read.answer(['author'])
  await Promise.all([first, second])
  t.equal(read.reads(), 1, 'one read for two streams opening together')
  t.notOk(follows.mayRead('reader', closed), 'the read that missed the unfollow does not bring the follow back')
})

await t.test('a follow that arrives during the first read is kept', async (t) => {
  const read = pendingRead()
  const follows = createStreamFollows(read.load)
  const watching = follows.watch('reader')
  follows.apply(follow('user.followed', 'reader', 'author'))
  read.answer([])
  await watching
  t.ok(follows.mayRead('reader', closed), 'a follower')
})

await t.test("a reader's follows are forgotten with their last stream, and a failed read is not kept", async (t) => {
  let fail = true
  const follows = createStreamFollows(async () => {
    if (fail) throw new Error('the database is away')
    return ['author']
  })
  await t.rejects(follows.watch('reader'), /away/, 'the failure reaches the stream that asked')
  fail = false
  await follows.watch('reader')
  t.ok(follows.mayRead('reader', closed), 'read again on the next stream')
  follows.forget('reader')
  t.notOk(follows.mayRead('reader', closed), 'nothing kept once forgotten')
  t.ok(follows.mayRead('author', closed), 'the author may always read their own')
})
