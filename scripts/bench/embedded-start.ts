import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { NAMED_ACCOUNTS } from '../seed-large/people.js'
import type { BenchBase } from './context.js'
import { seedEmbedded } from './dataset.js'
import type { Report } from './legs.js'
import { freePort, ROOT } from './processes.js'
import { atMost, size, times } from './report.js'

const SERVER = path.join(ROOT, 'dist/server/main.js')
/** No start may take longer than this unless told; the measurement stops with an error instead. */
const LIMIT_MS = 120_000

interface Usage {
  rssMb: number
  /** The most the process held on the way (the kernel's high-water mark). */
  peakMb: number
  /** CPU time the process has used, user and system, in ms: on a shared machine a start's wall time depends on what share of the cores it gets, this much less. */
  cpuMs: number
}

/** One start of the built server: until it listens, and its memory and CPU time then. */
export interface Start extends Usage {
  ms: number
  /** The posts the server said it indexed. */
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

/** The message of one line of the server's JSON log; another line (none is expected) reads as empty. */
function logMessage(line: string): string {
  try {
    return (JSON.parse(line) as { msg?: string }).msg ?? ''
  } catch {
    return ''
  }
}

/**
 * Starts the built server on the embedded database in `dataDir` (whatever DATABASE_URL is set), waits
 * until it logs that it listens, reads its memory and CPU time, and stops it. A start that ends or outlasts `limitMs`
 * first is an error that says so.
 */
async function startOnce(dataDir: string, limitMs: number): Promise<Start> {
  const port = await freePort()
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [SERVER], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: String(port),
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let posts = NaN
    let buffered = ''
    let errors = ''
    let listening = false
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${dataDir}: no start within ${limitMs} ms`))
    }, limitMs)
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-2000)
    })
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const msg = logMessage(buffered.slice(0, end))
        buffered = buffered.slice(end + 1)
        const indexing = /^Indexing \d+ users and (\d+) posts/.exec(msg)
        if (indexing) posts = Number(indexing[1])
        if (!msg.startsWith('Server listening') || listening) continue
        listening = true
        const ms = performance.now() - started
        clearTimeout(timer)
        usageOf(child.pid as number).then((usage) => {
          child.once('exit', () => resolve({ ms, posts, ...usage }))
          child.kill('SIGTERM')
        }, reject)
      }
    })
    child.once('exit', (code) => {
      if (listening) return
      clearTimeout(timer)
      reject(new Error(`${dataDir}: the server exited with ${code} before it listened:\n${errors}`))
    })
    child.once('error', reject)
  })
}

/** `runs` starts on `dataDir`, one at a time; the median by start time. */
export async function medianStart(dataDir: string, runs: number, limitMs = LIMIT_MS): Promise<Start> {
  const starts: Start[] = []
  for (let run = 0; run < runs; run++) starts.push(await startOnce(path.resolve(dataDir), limitMs))
  starts.sort((a, b) => a.ms - b.ms)
  return starts[Math.floor(starts.length / 2)] as Start
}

/** Leg 17's data sets are the embedded legs' size and ten times it, with one user per this many posts. */
const POSTS_PER_USER = 20

/** What one size's median start showed. */
interface SizedStart extends Start {
  size: number
  rssPer1000: number
}

/**
 * Leg 17: the built server's start on two embedded data sets that `npm run seed:large` writes, the
 * embedded legs' size and ten times it, each started `rounds` times, one at a time, nothing else running.
 * Its start should grow no faster than the data (goal ≤ 10×), and its memory per post not at all.
 */
export async function embeddedStartLeg(base: BenchBase, { checks, details, results }: Report): Promise<void> {
  const began = performance.now()
  const sizes = [base.settings.posts, base.settings.posts * 10]
  const starts: SizedStart[] = []
  for (const posts of sizes) {
    const dir = await base.scratch.dir(`start-${posts}`)
    const users = Math.max(NAMED_ACCOUNTS.length, Math.round(posts / POSTS_PER_USER))
    base.log(`17. embedded start: seeding ${users} users and ${posts} posts`)
    await seedEmbedded(dir, users, posts)
    base.log(`17. embedded start: ${base.settings.rounds} starts on ${size(posts)} posts`)
    const start = await medianStart(dir, base.settings.rounds)
    base.log(`  ${(start.ms / 1000).toFixed(2)} s, RSS ${start.rssMb.toFixed(0)} MB`)
    starts.push({ ...start, size: posts, rssPer1000: (start.rssMb / posts) * 1000 })
  }
  base.log(`17. took ${((performance.now() - began) / 1000).toFixed(0)} s`)
  results.embeddedStart = starts
  const [small, large] = starts as [SizedStart, SizedStart]
  const compared = `${size(large.size)} ÷ ${size(small.size)} posts`
  const ratio = large.ms / small.ms
  checks.push(atMost(17, `embedded start, ${compared}`, ratio, 10, times(ratio), '10×'))
  const mb = (value: number) => `${value.toFixed(2)} MB`
  checks.push(
    atMost(
      17,
      `RSS per 1,000 posts at ${size(large.size)}, against ${size(small.size)}`,
      large.rssPer1000,
      small.rssPer1000,
      mb(large.rssPer1000),
      mb(small.rssPer1000),
    ),
  )
  details.push(
    `Leg 17 (median of ${base.settings.rounds} starts, one user per ${POSTS_PER_USER} posts): ` +
      starts
        .map(
          (s) =>
            `${size(s.size)} posts ${(s.ms / 1000).toFixed(2)} s to listen, RSS ${s.rssMb.toFixed(0)} MB (${mb(s.rssPer1000)} per 1,000 posts)`,
        )
        .join('; ') +
      '.',
  )
}
