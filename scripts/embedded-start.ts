import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'

/**
 * How long the built server takes to start on embedded databases of different sizes, and how much
 * memory it holds once ready: `npm run build && node --import tsx scripts/embedded-start.ts -- DIR...`,
 * each DIR a data directory that `npm run seed:large` filled. Each is started `--runs` times, one at a
 * time; the table gives the median start and the RSS of that run, per directory and per 1,000 posts.
 */
const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, port: { type: 'string', default: '3990' } },
  allowPositionals: true,
})
const RUNS = Math.max(1, Number(values.runs))
const SERVER = path.resolve('dist/server/main.js')
/** No start may take longer than this; the measurement stops with an error instead. */
const LIMIT_MS = 120_000

interface Start {
  ms: number
  rssMb: number
  posts: number
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN)
  return kb / 1024
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
        rssOf(child.pid as number).then((rssMb) => {
          child.once('exit', () => resolve({ ms, rssMb, posts }))
          child.kill('SIGTERM')
        }, reject)
      }
    })
    child.once('error', reject)
  })
}

const rows: string[] = ['| posts | start (median of ' + RUNS + ') | RSS | RSS per 1,000 posts |', '|---|---|---|---|']
for (const dir of positionals) {
  const starts: Start[] = []
  for (let run = 0; run < RUNS; run++) starts.push(await startOnce(path.resolve(dir)))
  starts.sort((a, b) => a.ms - b.ms)
  const median = starts[Math.floor(starts.length / 2)] as Start
  rows.push(
    `| ${median.posts.toLocaleString('en')} | ${(median.ms / 1000).toFixed(1)} s | ${median.rssMb.toFixed(0)} MB | ` +
      `${((median.rssMb / median.posts) * 1000).toFixed(2)} MB |`,
  )
}
console.log(rows.join('\n'))
