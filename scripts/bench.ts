import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { ensureBuilt } from './bench/build.js'
import { bundleWeight } from './bench/bundle.js'
import type { BenchBase, Settings } from './bench/context.js'
import { Scratch } from './bench/dataset.js'
import { startEmbedded } from './bench/embedded.js'
import { FINDING_MS, findingLeg } from './bench/finding.js'
import { audiencesLeg } from './bench/audiences.js'
import { runServerLegs, type Report } from './bench/legs.js'
import { lighthouseLeg } from './bench/lighthouse.js'
import { embeddedStartLeg } from './bench/embedded-start.js'
import { jobsLeg } from './bench/jobs.js'
import { pageSizeLeg } from './bench/page-size.js'
import { runPgLegs } from './bench/pg-legs.js'
import { BenchSchemas, PG_STREAMS, checkBenchDatabase, preparePostgres } from './bench/pg.js'
import type { Running } from './bench/processes.js'
import { atMost, kb, machine, size, times } from './bench/report.js'
import { GROUPS, render, save, type GroupName, type SavedResults } from './bench/results.js'

/** The embedded legs must end within this; past it everything is stopped and the run fails. */
const DEADLINE_MS = 300_000
/**
 * What the PostgreSQL legs add to it, most of it loading a million posts on a busy 2-core machine: 394 s
 * at a load average of 9 to 15.
 */
const PG_DEADLINE_MS = 900_000
/**
 * What leg 15 adds: six comparisons of two sides under writes, and an embedded server started for them;
 * 179 s at the default runs (4 s, 3 rounds) at a load average of 11.
 */
const PG_AGAINST_EMBEDDED_MS = 300_000
/**
 * What leg 17 adds: two data sets seeded, the larger of 100,000 posts, and each started three times; 93 s
 * at the default sizes at a load average of 11.
 */
const EMBEDDED_START_MS = 180_000
/** What leg 19 adds: two small data sets seeded on each store and four comparisons. */
const AUDIENCES_MS = 300_000
const log = (line: string) => process.stderr.write(`${line}\n`)
/** The legs that measure PostgreSQL, and need DATABASE_URL. */
const PG_LEGS = [7, 8, 9, 12, 14, 15]
/** Measured on both stores: the embedded store always, PostgreSQL too when DATABASE_URL is set. */
const BOTH_STORES_LEGS = [16]
/** Measured on both stores like BOTH_STORES_LEGS, but on schemas of their own rather than the large data sets. */
const OWN_SCHEMA_LEGS = [19]
const LEGS: readonly number[] = GROUPS.flatMap((group) => group.legs)

function settingsFromArgs(): Settings {
  const databaseUrl = process.env.DATABASE_URL || undefined
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
      'pg-users': { type: 'string', default: '20000' },
      'pg-posts': { type: 'string', default: '1000000' },
      only: {
        type: 'string',
        default: databaseUrl
          ? '1,2,3,4,5,13,20,16,6,10,11,17,18,19,7,15,8,9,14,12'
          : '1,2,3,4,5,13,20,16,6,10,11,17,18,19',
      },
    },
  })
  const number = (name: keyof typeof values) => {
    const value = Number(values[name])
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`)
    return value
  }
  const only = new Set(String(values.only).split(',').map(Number))
  const unknown = [...only].filter((leg) => !LEGS.includes(leg))
  if (unknown.length > 0)
    throw new Error(`--only: no leg ${unknown.join(', ')}; the legs are 1 to ${Math.max(...LEGS)}`)
  if (PG_LEGS.some((leg) => only.has(leg))) {
    if (!databaseUrl)
      throw new Error('legs 7 to 9, 12, 14 and 15 measure PostgreSQL: set DATABASE_URL to a database on 127.0.0.1')
  }
  if (databaseUrl && [...PG_LEGS, ...BOTH_STORES_LEGS, ...OWN_SCHEMA_LEGS].some((leg) => only.has(leg)))
    checkBenchDatabase(databaseUrl)
  if (only.has(9) && !only.has(3)) {
    log("leg 9 is compared with leg 3's shared flush: running leg 3 too")
    only.add(3)
  }
  return {
    duration: number('duration'),
    warmup: number('warmup'),
    rounds: Math.max(3, number('rounds')),
    connections: number('connections'),
    writeConnections: number('write-connections'),
    users: number('users'),
    posts: number('posts'),
    fanout: String(values.fanout)
      .split(',')
      .map(Number)
      .filter((n) => n > 0),
    fanoutEvents: number('events'),
    only,
    databaseUrl,
    pgUsers: number('pg-users'),
    pgPosts: number('pg-posts'),
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
  const pgLegs = [...PG_LEGS, ...(settings.databaseUrl ? BOTH_STORES_LEGS : [])].some((leg) => settings.only.has(leg))
  const openFiles = Math.max(...settings.fanout, pgLegs ? PG_STREAMS : 0) + 1024
  if (ensureOpenFiles(openFiles) === undefined) return
  const started = performance.now()
  const scratch = new Scratch()
  const running: Running[] = []
  const ownSchemas = OWN_SCHEMA_LEGS.some((leg) => settings.only.has(leg))
  const schemas = (pgLegs || ownSchemas) && settings.databaseUrl ? new BenchSchemas(settings.databaseUrl) : undefined
  const stopServers = async () => {
    await Promise.allSettled(running.splice(0).map((server) => server.stop()))
  }
  const stopAll = async () => {
    await stopServers()
    await Promise.allSettled([schemas?.drop(), scratch.clear()])
  }
  const deadline =
    DEADLINE_MS +
    (pgLegs ? PG_DEADLINE_MS : 0) +
    [11, 12].filter((leg) => settings.only.has(leg)).length * FINDING_MS +
    (settings.only.has(15) ? PG_AGAINST_EMBEDDED_MS : 0) +
    (settings.only.has(17) ? EMBEDDED_START_MS : 0) +
    (settings.only.has(19) ? AUDIENCES_MS : 0)
  const watchdog = setTimeout(() => {
    log(`bench: past ${deadline / 1000} s, stopping`)
    void stopAll().finally(() => process.exit(1))
  }, deadline)
  watchdog.unref()

  try {
    await ensureBuilt(log)
    const host = machine()
    // The URL may carry a password: results.json keeps only that a database was used.
    const saved = { ...settings, only: [...settings.only], databaseUrl: settings.databaseUrl ? 'set' : undefined }
    const newReport = (): Report => ({ checks: [], details: [], results: { machine: host, settings: saved } })
    const reports: Record<GroupName, Report> = { embedded: newReport(), postgres: newReport() }
    const base: BenchBase = { settings, jwtSecret: randomBytes(32).toString('base64url'), openFiles, scratch, log }

    if (settings.only.has(6)) {
      const { checks, details, results } = reports.embedded
      const bundle = await bundleWeight(scratch, log)
      results.bundle = bundle
      checks.push(atMost(6, 'initial JS, preact/compat ÷ React (gzip)', bundle.ratio, 0.3, times(bundle.ratio), '0.3×'))
      checks.push(
        atMost(
          6,
          'initial JS with preact/compat (gzip)',
          bundle.preact.gzip,
          30 * 1024,
          kb(bundle.preact.gzip),
          '30 KB',
        ),
      )
      details.push(
        `Leg 6: preact/compat ${kb(bundle.preact.gzip)} gzip (${kb(bundle.preact.bytes)} raw, ${bundle.preact.files.length} files); React ${kb(bundle.react.gzip)} gzip (${kb(bundle.react.bytes)} raw, ${bundle.react.files.length} files).`,
      )
    }

    if (settings.only.has(10)) await lighthouseLeg(reports.embedded, { scratch, running, log })

    if ([1, 2, 3, 4, 5, 11, 13, 16, 20].some((leg) => settings.only.has(leg))) {
      const { bench, hello } = await startEmbedded(base, running)
      // First, before the legs that write add posts nobody has liked yet to the newest page.
      if (settings.only.has(16))
        await pageSizeLeg(bench.sessions, `embedded, ${size(settings.posts)} posts`, reports.embedded)
      await runServerLegs(bench, hello, reports.embedded)
      if (settings.only.has(11))
        await findingLeg(bench, 11, bench.chirp.url, `${size(settings.posts)} posts`, reports.embedded)
      // Idle or not, they would share the two cores with what the PostgreSQL legs measure.
      await stopServers()
    }

    // Alone on the machine: a start competes with nothing of the benchmark's own.
    if (settings.only.has(17)) await embeddedStartLeg(base, reports.embedded)
    // With DATABASE_URL, on a schema of its own too: none of the large data sets is needed.
    if (settings.only.has(18)) await jobsLeg(base, reports.embedded)
    // Both stores in one leg, each on small data sets of its own.
    if (settings.only.has(19)) await audiencesLeg(base, reports.embedded, schemas)

    if (pgLegs && schemas) {
      const pg = await preparePostgres(base, schemas, running)
      reports.postgres.results.postgres = pg.version
      const writes = reports.embedded.results.writes as { medians: { shared: { rps: number } } } | undefined
      await runPgLegs(base, pg, writes?.medians.shared.rps, running, reports.postgres)
      // On the large schema's server: the figure that matters is the one at a million posts.
      if (settings.only.has(12))
        await findingLeg(base, 12, pg.large.few.base, `${size(settings.pgPosts)} posts`, reports.postgres)
    }

    const seconds = (performance.now() - started) / 1000
    const ran: SavedResults = {}
    const whole: SavedResults = {}
    for (const { name, legs } of GROUPS) {
      const { checks, details, results } = reports[name]
      if (checks.length === 0) continue
      details.push(
        `Run took ${seconds.toFixed(0)} s. Reproduce: \`npm install && ${name === 'postgres' ? 'DATABASE_URL=… ' : ''}npm run bench\`.`,
      )
      ran[name] = { ...results, machine: host, settings: saved, checks, details, seconds }
      if (legs.every((leg) => settings.only.has(leg))) whole[name] = ran[name]
    }
    process.stdout.write(`\n${render(ran)}\n`)
    const savedNames = Object.keys(whole)
    if (savedNames.length > 0)
      process.stdout.write(`Saved (${savedNames.join(', ')}) to ${await save(whole)}/results.json and results.md\n`)
    const partial = Object.keys(ran).filter((name) => !savedNames.includes(name))
    if (partial.length > 0) process.stdout.write(`Not saved (${partial.join(', ')}): only some of its legs ran.\n`)
  } finally {
    clearTimeout(watchdog)
    await stopAll()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exit(1)
})
