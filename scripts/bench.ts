import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { login } from './bench/api.js'
import { ensureBuilt } from './bench/build.js'
import { bundleWeight } from './bench/bundle.js'
import type { Bench, Settings } from './bench/context.js'
import { Scratch, copyDataSet, seedDataSet } from './bench/dataset.js'
import { runServerLegs, type Report } from './bench/legs.js'
import { lighthouseLeg } from './bench/lighthouse.js'
import { startChirp, startHello, type Running } from './bench/processes.js'
import { atMost, kb, machine, markdown, save, times } from './bench/report.js'
import { BENCH_PASSWORD } from './seed-large/people.js'

/** The whole run must end within this; past it everything is stopped and the run fails. */
const DEADLINE_MS = 300_000
const log = (line: string) => process.stderr.write(`${line}\n`)

function settingsFromArgs(): Settings {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '4' },
      warmup: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      'write-connections': { type: 'string', default: '64' },
      users: { type: 'string', default: '2000' },
      posts: { type: 'string', default: '10000' },
      fanout: { type: 'string', default: '1000,5000' },
      events: { type: 'string', default: '20' },
      only: { type: 'string', default: '1,2,3,4,5,6,10' },
    },
  })
  const number = (name: keyof typeof values) => {
    const value = Number(values[name])
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`)
    return value
  }
  return {
    duration: number('duration'),
    warmup: number('warmup'),
    rounds: Math.max(3, number('rounds')),
    connections: number('connections'),
    writeConnections: number('write-connections'),
    users: number('users'),
    posts: number('posts'),
    fanout: String(values.fanout).split(',').map(Number).filter((n) => n > 0),
    fanoutEvents: number('events'),
    only: new Set(String(values.only).split(',').map(Number)),
  }
}

/** Thousands of streams need as many file descriptors: rerun under a raised soft limit when it is too low. */
function ensureOpenFiles(needed: number): number | undefined {
  const read = (flag: string) => Number(spawnSync('sh', ['-c', `ulimit ${flag}`], { encoding: 'utf8' }).stdout.trim())
  const soft = read('-Sn')
  if (Number.isNaN(soft) || soft >= needed) return needed
  const hard = read('-Hn')
  const target = Number.isNaN(hard) ? needed : Math.min(hard, needed)
  if (process.env.CHIRP_BENCH_RAISED || target <= soft) {
    throw new Error(`the open-files limit is ${soft}; the fan-out leg needs ${needed} (try: ulimit -n ${needed})`)
  }
  const args = [...process.execArgv, ...process.argv.slice(1)]
  const child = spawn('sh', ['-c', `ulimit -n ${target} && exec "$0" "$@"`, process.execPath, ...args], {
    stdio: 'inherit',
    env: { ...process.env, CHIRP_BENCH_RAISED: '1' },
  })
  child.on('exit', (code) => process.exit(code ?? 1))
  return undefined
}

async function main(): Promise<void> {
  const settings = settingsFromArgs()
  const openFiles = Math.max(...settings.fanout, 0) + 1024
  if (ensureOpenFiles(openFiles) === undefined) return
  const started = performance.now()
  const scratch = new Scratch()
  const running: Running[] = []
  const stopAll = async () => {
    await Promise.allSettled(running.map((server) => server.stop()))
    await scratch.clear()
  }
  const watchdog = setTimeout(() => {
    log(`bench: past ${DEADLINE_MS / 1000} s, stopping`)
    void stopAll().finally(() => process.exit(1))
  }, DEADLINE_MS)
  watchdog.unref()

  try {
    await ensureBuilt(log)
    const host = machine()
    const report: Report = { checks: [], details: [], results: { machine: host, settings: { ...settings, only: [...settings.only] } } }
    const { checks, details, results } = report

    if (settings.only.has(6)) {
      const bundle = await bundleWeight(scratch, log)
      results.bundle = bundle
      checks.push(atMost(6, 'initial JS, preact/compat ÷ React (gzip)', bundle.ratio, 0.3, times(bundle.ratio), '0.3×'))
      checks.push(atMost(6, 'initial JS with preact/compat (gzip)', bundle.preact.gzip, 30 * 1024, kb(bundle.preact.gzip), '30 KB'))
      details.push(`Leg 6: preact/compat ${kb(bundle.preact.gzip)} gzip (${kb(bundle.preact.bytes)} raw, ${bundle.preact.files.length} files); React ${kb(bundle.react.gzip)} gzip (${kb(bundle.react.bytes)} raw, ${bundle.react.files.length} files).`)
    }

    if (settings.only.has(10)) await lighthouseLeg(report, { scratch, running, log })

    const needServer = [1, 2, 3, 4, 5].some((leg) => settings.only.has(leg))
    if (needServer) {
      const dataSetDir = await scratch.dir('data')
      log(`seeding ${settings.users} users and ${settings.posts} posts`)
      const dataSet = await seedDataSet(dataSetDir, settings.users, settings.posts)
      const chirpDir = await scratch.dir('chirp')
      await copyDataSet(dataSetDir, chirpDir)
      const jwtSecret = randomBytes(32).toString('base64url')
      const hello = await startHello()
      running.push(hello)
      const chirp = await startChirp({
        dataDir: chirpDir,
        jwtSecret,
        openFiles,
        env: { EVENTS_MAX_STREAMS_PER_USER: String(Math.max(...settings.fanout, 10) + 100) },
      })
      running.push(chirp)
      const session = (username: string) => login(chirp.url, username, BENCH_PASSWORD)
      const writerId = dataSet.users.find((user) => user.username === 'bench_writer')?._id
      // Spread over the whole data set, not just the newest posts: writes land everywhere.
      const free = dataSet.posts.filter((post) => !post.likedBy.includes(writerId ?? '')).map((post) => post._id)
      const spread = free.map((id, i) => ({ id, key: (i * 2654435761) % 4294967296 })).sort((a, b) => a.key - b.key)
      let taken = 0
      const bench: Bench = {
        settings,
        chirp,
        sessions: {
          typical: await session('bench_typical'),
          many: await session('bench_many'),
          few: await session('bench_few'),
          writer: await session('bench_writer'),
        },
        takePosts(count) {
          if (taken + count > spread.length) throw new Error('the data set ran out of posts to like; seed more posts')
          taken += count
          return spread.slice(taken - count, taken).map((entry) => entry.id)
        },
        dataSetDir,
        jwtSecret,
        openFiles,
        scratch,
        log,
      }

      await runServerLegs(bench, hello, report)
    }

    const seconds = (performance.now() - started) / 1000
    results.checks = checks
    results.seconds = seconds
    details.push(`Run took ${seconds.toFixed(0)} s. Reproduce: \`npm install && npm run bench\`.`)
    const text = markdown(checks, details, host, settings)
    // Only a whole run replaces the saved results; one leg run alone is printed, not saved.
    if ([1, 2, 3, 4, 5, 6, 10].every((leg) => settings.only.has(leg))) {
      const dir = await save(results, text)
      process.stdout.write(`\n${text}\nSaved to ${dir}/results.json and results.md\n`)
    } else {
      process.stdout.write(`\n${text}\nNot saved: only some legs ran.\n`)
    }
  } finally {
    clearTimeout(watchdog)
    await stopAll()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exit(1)
})
