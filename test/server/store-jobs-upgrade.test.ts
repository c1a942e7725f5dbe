import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import type { PostRecord } from '../../server/store/types.js'
import { tempDataDir } from '../helpers/app.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * A data directory from before the job queue: each poll nobody noticed closed gets its poll-close job,
 * due when it closes, at the first start; the first write keeps it, and a noticed poll gets none.
 */
await t.test('polls from before the queue get their poll-close jobs when the store opens', async (t) => {
  const database = uuidDatabase({ users: 2, posts: 2 })
  const [open, noticed] = database.posts as [PostRecord, PostRecord]
  const poll = { options: ['a', 'b'], counts: [0, 0], closesAt: '2030-01-01T00:00:00.000Z' }
  database.posts = [
    { ...open, poll },
    { ...noticed, poll: { ...poll, closeNoticed: true } },
  ]
  const dataDir = await tempDataDir(t)
  await writeFile(path.join(dataDir, 'db.json'), JSON.stringify(database))
  const noSeed = async () => {
    throw new Error('not a new directory')
  }
  const store = await EmbeddedStore.open({ dataDir, seed: noSeed })
  t.strictSame(await store.countJobs(), [{ kind: 'poll-close', state: 'queued', count: 1 }])
  const [job] = await store.claimJobs({
    kinds: ['poll-close'],
    limit: 5,
    at: poll.closesAt,
    claim: 'c',
    leaseUntil: '2030-01-01T00:01:00.000Z',
  })
  t.match(job, { _id: open._id, payload: { postId: open._id } }, "the job is the post's, due when the poll closes")
  await store.close()

  const reopened = await EmbeddedStore.open({ dataDir, seed: noSeed })
  t.teardown(() => reopened.close())
  t.strictSame(
    await reopened.countJobs(),
    [{ kind: 'poll-close', state: 'queued', count: 1 }],
    'written by the first write, and queued again at the next start as its run never ended',
  )
})
