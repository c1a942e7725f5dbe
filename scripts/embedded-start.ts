import { spawn } from 'node:child_process'
import { readFile, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ShardedFiles } from '../server/store/sharded-files.js'

/**
 * How long the built server takes to start on embedded databases of different sizes, and how much
 * memory it holds once ready: `npm run build && node --import tsx scripts/embedded-start.ts -- DIR...`,
 * each DIR a data directory that `npm run seed:large` filled. Each is started `--runs` times, one at a
 * time; the table gives the median start, the CPU time of that run (all its threads), its RSS once it
 * listens and the most it held on the way (the kernel's high-water mark), per directory and per 1,000
 * posts. A second table measures the data itself (what is on disk, and how many follows, likes, comments
 * and notifications it holds), read after the starts, so that a start can be compared with what it
 * loaded and not only with its posts; `--without-data` leaves it out.
 */
const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: '3990' },
    'without-data': { type: 'boolean', default: false },
    'limit-seconds': { type: 'string', default: '120' },
  },
  allowPositionals: true,
})
const RUNS = Math.max(1, Number(values.runs))
const SERVER = path.resolve('dist/server/main.js')
/** No start may take longer than this (`--limit-seconds`); the measurement stops with an error instead. */
const LIMIT_MS = Math.max(1, Number(values['limit-seconds'])) * 1000

interface Usage {
  rssMb: number
  peakMb: number
  /** CPU time the process has used, user and system, in ms: on a shared machine a start's wall time depends on what share of the cores it gets, this much less. */
  cpuMs: number
}

interface Start extends Usage {
  ms: number
  posts: number
}

/** Clock ticks a second of /proc's CPU times: 100 on Linux. */
const TICKS_PER_SECOND = 100

/** The process's resident memory now and at most so far, in MB, and the CPU time it has used. */
async function usageOf(pid: number): Promise<Usage> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const mb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024
  // Fields 14 and 15 of /proc/PID/stat, counted after the command name in parentheses.
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return { rssMb: mb('VmRSS'), peakMb: mb('VmHWM'), cpuMs: (ticks / TICKS_PER_SECOND) * 1000 }
}

function startOnce(dataDir: string): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [SERVER], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(values.port), LOG_LEVEL: 'info', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let posts = NaN
    let buffered = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${dataDir}: no start within ${LIMIT_MS} ms`))
    }, LIMIT_MS)
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        const msg = (JSON.parse(line) as { msg?: string }).msg ?? ''
        const indexing = /^Indexing \d+ users and (\d+) posts/.exec(msg)
        if (indexing) posts = Number(indexing[1])
        if (!msg.startsWith('Server listening')) continue
        const ms = performance.now() - started
        clearTimeout(timer)
        usageOf(child.pid as number).then((usage) => {
          child.once('exit', () => resolve({ ms, posts, ...usage }))
          child.kill('SIGTERM')
        }, reject)
      }
    })
    child.once('error', reject)
  })
}

/** What a data directory holds: its bytes on disk and how many records of each kind. */
async function measureData(dir: string): Promise<string> {
  const segments = path.join(dir, 'db')
  const files = [path.join(dir, 'db.json'), ...(await readdir(segments)).map((name) => path.join(segments, name))]
  let bytes = 0
  for (const file of files) bytes += (await stat(file)).size
  const data = await new ShardedFiles(dir).read()
  if (!data) throw new Error(`${dir} holds no database`)
  let follows = 0
  let likes = 0
  let comments = 0
  let votes = 0
  for (const user of data.users) follows += user.following.length
  for (const post of data.posts) {
    likes += post.likedBy.length
    comments += post.comments.length
    for (const comment of post.comments) votes += comment.upvotedBy.length + comment.downvotedBy.length
  }
  const posts = data.posts.length
  const counts = [posts, data.users.length, follows, likes, comments, votes, data.notifications?.length ?? 0]
  const perPost = (count: number) => (count / posts).toFixed(2)
  return (
    `| ${counts.map((count) => count.toLocaleString('en')).join(' | ')} | ${(bytes / 1e6).toFixed(0)} MB | ` +
    `${(((bytes / posts) * 1000) / 1e6).toFixed(2)} MB | ${perPost(likes)} | ${perPost(follows)} |`
  )
}

const rows: string[] = [
  `| posts | start (median of ${RUNS}) | its CPU time (all threads) | RSS once listening | RSS per 1,000 posts | peak RSS | start per 1,000 posts | CPU per 1,000 posts |`,
  '|---|---|---|---|---|---|---|---|',
]
for (const dir of positionals) {
  const starts: Start[] = []
  for (let run = 0; run < RUNS; run++) starts.push(await startOnce(path.resolve(dir)))
  starts.sort((a, b) => a.ms - b.ms)
  const median = starts[Math.floor(starts.length / 2)] as Start
  const perThousand = (value: number) => (value / median.posts) * 1000
  rows.push(
    `| ${median.posts.toLocaleString('en')} | ${(median.ms / 1000).toFixed(1)} s | ${(median.cpuMs / 1000).toFixed(1)} s | ` +
      `${median.rssMb.toFixed(0)} MB | ${perThousand(median.rssMb).toFixed(2)} MB | ${median.peakMb.toFixed(0)} MB | ` +
      `${perThousand(median.ms).toFixed(0)} ms | ${perThousand(median.cpuMs).toFixed(0)} ms |`,
  )
}
console.log(rows.join('\n'))
if (values['without-data']) process.exit(0)
const data = [
  '| posts | users | follows | likes | comments | comment votes | notifications | on disk | on disk per 1,000 posts | likes a post | follows a post |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
]
for (const dir of positionals) data.push(await measureData(path.resolve(dir)))
console.log(`\n${data.join('\n')}`)
