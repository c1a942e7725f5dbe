import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { ensureBuilt } from '../e2e/build.js'
import { TEST_SECRET } from '../helpers/app.js'
import { request, startChildServer } from '../helpers/child-server.js'
import { ogPage, servePages, type PageHandler } from '../helpers/https-pages.js'
import { skipWithoutPostgres, testSchema, TEST_DATABASE_URL } from '../helpers/pg.js'
import { startSmtp } from '../helpers/smtp.js'

/**
 * kill -9 with jobs in flight, on both stores: the built server is killed while link cards are being
 * fetched and polls are closing, then started again. Every job an acknowledged write enqueued still
 * runs: every post gets its card and every poll tells its author. What must happen once happens once: each
 * poll's author is told exactly once, a card's page is fetched at most twice, and a mail sent again
 * carries the Message-ID it had the first time.
 */

const POSTS = 16
const MAILS = 4
/** Pages answer this late, so fetches are under way when the server is killed. */
const PAGE_DELAY_MS = 400

const slowPage: PageHandler = (_req, res) => {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(ogPage({ title: 'Slow', description: 'but there' }))
  }, PAGE_DELAY_MS)
}
const pages = await servePages(
  t,
  Object.fromEntries(
    ['embedded', 'postgres'].flatMap((store) =>
      Array.from({ length: POSTS }, (_, i) => [`/slow/${store}/${i}`, slowPage] as const),
    ),
  ),
)
const smtp = await startSmtp(t)
const caDir = await mkdtemp(path.join(tmpdir(), 'chirp-ca-'))
t.teardown(() => rm(caDir, { recursive: true, force: true }))
const caFile = path.join(caDir, 'ca.pem')
await writeFile(caFile, pages.ca)

const stores = [
  { name: 'embedded', env: (): Record<string, string> => ({}), skip: false as false | string },
  {
    name: 'postgres',
    env: (schema: string): Record<string, string> => ({ DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }),
    skip: await skipWithoutPostgres(),
  },
]

for (const store of stores) {
  await t.test(
    `kill -9 with jobs in flight loses none and repeats none (${store.name})`,
    { skip: store.skip },
    async (t) => {
      await ensureBuilt()
      const dataDir = await mkdtemp(path.join(tmpdir(), 'chirp-jobs-crash-'))
      t.teardown(() => rm(dataDir, { recursive: true, force: true }))
      const env = {
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_SECRET,
        CLIENT_DIR: path.join(dataDir, 'none'),
        POLL_DAY_SECONDS: '1',
        LINK_PREVIEW_ALLOW: `localhost:${pages.port}`,
        NODE_EXTRA_CA_CERTS: caFile,
        SMTP_URL: smtp.url,
        JOBS_POLL_MS: '50',
        // The runs cut short by the kill are taken again this soon after it, on PostgreSQL.
        JOBS_LEASE_MS: '1500',
        ...(store.name === 'postgres' ? store.env(testSchema(t)) : {}),
      }
      const first = await startChildServer(env)
      t.teardown(() => void first.child.kill('SIGKILL'))
      const login = await request(first.base, 'POST', '/api/auth/login', undefined, {
        username: 'maya.lin',
        password: 'mayapassword',
      })
      const token = login.body.encodedToken as string
      const mailsBefore = smtp.mails.length
      const posts: string[] = []
      for (let i = 0; i < POSTS; i++) {
        const link = pages.url(`/slow/${store.name}/${i}`)
        const res = await request(first.base, 'POST', '/api/posts', token, {
          content: `a poll and a link ${link}`,
          poll: { options: ['yes', 'no'], days: 1 },
        })
        t.equal(res.status, 201, `post ${i} acknowledged`)
        posts.push((res.body.post as { _id: string })._id)
      }
      for (let i = 0; i < MAILS; i++) {
        const res = await request(first.base, 'POST', '/api/auth/password-reset', undefined, {
          email: 'maya@chirp.local',
        })
        t.equal(res.status, 200, `reset ${i} acknowledged`)
      }
      // Fetches are under way and the first polls have just closed.
      await sleep(1000)
      first.child.kill('SIGKILL')
      await first.exited

      const second = await startChildServer(env)
      t.teardown(() => void second.child.kill('SIGKILL'))
      const cards = async () =>
        Promise.all(
          posts.map(
            async (id) => (await request(second.base, 'GET', `/api/posts/${id}`)).body.post as { card: unknown },
          ),
        )
      const notices = async () => {
        const res = await request(second.base, 'GET', '/api/notifications?limit=100', token)
        return (res.body.notifications as { type: string; post?: { _id: string } }[]).filter((n) => n.type === 'poll')
      }
      for (let i = 0; ; i++) {
        const done = (await cards()).every((post) => post.card !== null) && (await notices()).length >= POSTS
        const mailed = new Set(
          smtp.mails.slice(mailsBefore).map((mail) => /^Message-ID:\s*(<[^>]+>)/im.exec(mail.text)?.[1]),
        )
        if (done && mailed.size >= MAILS) break
        if (i > 200) {
          const missing = (await cards()).filter((post) => post.card === null).length
          throw new Error(
            `the jobs never all ran: ${missing} cards, ${(await notices()).length} polls, ${mailed.size} mails`,
          )
        }
        await sleep(50)
      }
      // Give any run that would repeat an effect the time to do it before counting.
      await sleep(500)
      const told = await notices()
      t.strictSame(
        posts.filter((id) => told.filter((n) => n.post?._id === id).length !== 1),
        [],
        'every poll told its author exactly once',
      )
      const fetched = posts.map((_, i) => pages.requested.filter((p) => p === `/slow/${store.name}/${i}`).length)
      t.ok(
        fetched.every((count) => count >= 1 && count <= 2),
        `every card's page fetched once or twice: ${fetched.join(' ')}`,
      )
      const ids = smtp.mails.slice(mailsBefore).map((mail) => /^Message-ID:\s*(<[^>]+>)/im.exec(mail.text)?.[1])
      t.equal(new Set(ids).size, MAILS, `every mail sent, each under its own Message-ID (${ids.length} sends)`)
      t.notOk(ids.includes(undefined), 'every mail has a Message-ID')
      second.child.kill('SIGTERM')
      t.equal(await second.exited, 0, 'a graceful stop at the end')
    },
  )
}
