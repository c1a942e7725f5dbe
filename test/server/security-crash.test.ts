import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { ensureBuilt } from '../e2e/build.js'
import { request, startChildServer } from '../helpers/child-server.js'
import { TEST_SECRET } from '../helpers/app.js'

/**
 * kill -9 during a write load: the built server (dist/server/main.js, rebuilt first when the sources are
 * newer, once per test run, as the end-to-end tests do) on 127.0.0.1 and a temporary
 * DATA_DIR is killed again and again while clients write. Every write it acknowledged (a 201) must be
 * there after the restart, and db.json must parse after every kill. Cycles and load are bounded.
 */
const CYCLES = 6
const WORKERS = 6
const LOAD_MS = [150, 450] as const
/** How long a cycle waits for its first acknowledged write before the kill's timer starts regardless. */
const FIRST_WRITE_MS = 10_000
const serverEnv = (dataDir: string) => ({
  DATA_DIR: dataDir,
  JWT_SECRET: TEST_SECRET,
  CLIENT_DIR: path.join(dataDir, 'none'),
})

const start = (dataDir: string) => startChildServer(serverEnv(dataDir))

await t.test('repeated kill -9 under write load loses no acknowledged write', async (t) => {
  await ensureBuilt()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'chirp-crash-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  /** Contents of acknowledged posts, and ids of acknowledged comments with their post. */
  const ackedPosts = new Set<string>()
  const ackedComments = new Map<string, string>()
  let token = ''
  let attempted = 0
  const parses: boolean[] = []

  async function verify(base: string, when: string) {
    const { posts } = (await request(base, 'GET', '/api/posts')).body as {
      posts: Array<{ _id: string; content: string; comments: Array<{ _id: string }> }>
    }
    const contents = new Set(posts.map((p) => p.content))
    const lostPosts = [...ackedPosts].filter((content) => !contents.has(content))
    const lostComments = [...ackedComments].filter(
      ([id, postId]) => !posts.find((p) => p._id === postId)?.comments.some((c) => c._id === id),
    )
    t.strictSame(lostPosts, [], `${when}: every acknowledged post is there (${ackedPosts.size})`)
    t.strictSame(lostComments, [], `${when}: every acknowledged comment is there (${ackedComments.size})`)
    return lostPosts.length + lostComments.length
  }

  async function worker(base: string, cycle: number, n: number, stop: { now: boolean }) {
    let myPost: string | undefined
    for (let i = 0; !stop.now && i < 500; i++) {
      attempted++
      try {
        if (myPost && i % 3 === 2) {
          const res = await request(base, 'POST', `/api/comments/add/${myPost}`, token, { text: `c${cycle}w${n}i${i}` })
          const comments = (res.body.post as { comments: Array<{ _id: string }> } | undefined)?.comments
          if (res.status === 201 && comments)
            ackedComments.set((comments[comments.length - 1] as { _id: string })._id, myPost)
        } else {
          const content = `crash c${cycle} w${n} i${i}`
          const res = await request(base, 'POST', '/api/posts', token, { content })
          if (res.status === 201) {
            ackedPosts.add(content)
            myPost = (res.body.post as { _id: string })._id
          }
        }
      } catch {
        return // the server was killed mid-request: that write was never acknowledged
      }
    }
  }

  let lost = 0
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    const server = await start(dataDir)
    if (cycle === 1) {
      const login = await request(server.base, 'POST', '/api/auth/login', undefined, {
        username: 'guest',
        password: 'guestpassword',
      })
      token = login.body.encodedToken as string
      // A second process on the same data directory must refuse to start, rather than overwrite the first.
      const second = await start(dataDir).then(
        () => 'started',
        (error: Error) => error.message,
      )
      t.match(second, /in use by another Chirp process/, 'a second server on the same DATA_DIR refuses to start')
    } else {
      lost += await verify(server.base, `after kill ${cycle - 1}`)
    }
    const stop = { now: false }
    const before = ackedPosts.size
    const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(server.base, cycle, n, stop)))
    // The kill comes a random while into the load, counted from its first acknowledged write, so that a
    // slow first request on a busy machine does not leave a cycle without writes to lose.
    const deadline = Date.now() + FIRST_WRITE_MS
    while (ackedPosts.size === before && Date.now() < deadline) await sleep(10)
    await sleep(LOAD_MS[0] + Math.random() * (LOAD_MS[1] - LOAD_MS[0]))
    server.child.kill('SIGKILL')
    await server.exited
    stop.now = true
    await load
    const text = await readFile(path.join(dataDir, 'db.json'), 'utf8')
    parses.push(
      (() => {
        try {
          JSON.parse(text)
          return true
        } catch {
          return false
        }
      })(),
    )
  }

  const last = await start(dataDir)
  lost += await verify(last.base, `after kill ${CYCLES}`)
  last.child.kill('SIGTERM')
  t.equal(await last.exited, 0, 'a graceful stop at the end')
  t.strictSame(parses, Array(CYCLES).fill(true), 'db.json parsed after every kill')
  t.ok(ackedPosts.size > CYCLES, 'writes were acknowledged in the cycles')
  t.comment(
    `kill -9 cycles: ${CYCLES}; writes attempted: ${attempted}; acknowledged: ${ackedPosts.size + ackedComments.size}; lost: ${lost}`,
  )
  t.equal(lost, 0, 'no acknowledged write lost')
})
