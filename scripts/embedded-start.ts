import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ShardedFiles } from '../server/store/sharded-files.js'
import { medianStart } from './bench/embedded-start.js'

/**
 * How long the built server takes to start on embedded databases of different sizes, and how much
 * memory it holds once ready: `npm run build && node --import tsx scripts/embedded-start.ts -- DIR...`,
 * each DIR a data directory that `npm run seed:large` filled. Each is started `--runs` times, one at a
 * time; the table gives the median start, the CPU time of that run (all its threads), its RSS once it
 * listens and the most it held on the way (the kernel's high-water mark), per directory and per 1,000
 * posts. A second table measures the data itself (what is on disk, and how many follows, likes, comments
 * and notifications it holds), read after the starts, so that a start can be compared with what it
 * loaded and not only with its posts; `--without-data` leaves it out. `npm run bench -- --only 17`
 * measures starts the same way on data sets of its own.
 */
const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'without-data': { type: 'boolean', default: false },
    'limit-seconds': { type: 'string', default: '120' },
  },
  allowPositionals: true,
})
const RUNS = Math.max(1, Number(values.runs))
/** No start may take longer than this (`--limit-seconds`); the measurement stops with an error instead. */
const LIMIT_MS = Math.max(1, Number(values['limit-seconds'])) * 1000

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
  const median = await medianStart(dir, RUNS, LIMIT_MS)
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
