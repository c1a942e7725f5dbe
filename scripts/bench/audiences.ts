import { BENCH_PASSWORD } from '../seed-large/people.js'
import { authHeaders, login, type Session } from './api.js'
import { compare, type BenchBase } from './context.js'
import { seedEmbedded, seedSchema } from './dataset.js'
import type { Report } from './legs.js'
import { load, pairedRatio } from './load.js'
import type { BenchSchemas } from './pg.js'
import { startChirp, type Running } from './processes.js'
import { atLeast } from './report.js'

const AUDIENCES = ['--audiences']
/** The readers whose home feeds are compared: one following 1,000 people and one following 10. */
const READERS = [
  { who: 'bench_many', following: '1,000' },
  { who: 'bench_few', following: '10' },
] as const

interface Sides {
  store: string
  /** The server on the data set where every post is public, as every post was before audiences. */
  allPublic: Running
  /** The server on the same data set with a third of the posts unlisted or for followers only. */
  mixed: Running
}

/** Each reader's home feed on both servers, compared in interleaved rounds. */
async function feedsOf(bench: BenchBase, sides: Sides, { checks, details, results }: Report): Promise<void> {
  const connections = bench.settings.connections
  const run = (session: Session) => (duration: number) =>
    load({ url: `${session.base}/api/feed?limit=20`, headers: authHeaders(session), connections, duration })
  const measured = []
  for (const { who, following } of READERS) {
    const allPublic = await login(sides.allPublic.url, who, BENCH_PASSWORD)
    const mixed = await login(sides.mixed.url, who, BENCH_PASSWORD)
    const title = `19. ${sides.store} home feed, following ${following}: a third not public vs all public`
    const comparison = await compare(bench, title, { mixed: run(mixed), allPublic: run(allPublic) })
    const ratio = pairedRatio(comparison.runs.mixed, comparison.runs.allPublic)
    measured.push({ following, ...comparison, ratio })
    checks.push(atLeast(19, `${sides.store} feed, following ${following}: a third not public ÷ all public`, ratio, 0.9))
    const { mixed: m, allPublic: p } = comparison.medians
    details.push(
      `Leg 19, ${sides.store}, following ${following} (req/s, medians): a third not public ${m.rps.toFixed(0)} ` +
        `(p99 ${m.p99} ms), all public ${p.rps.toFixed(0)} (p99 ${p.p99} ms).`,
    )
  }
  results[`audiences-${sides.store}`] = measured
}

/**
 * Leg 19: the home feed where a third of the posts are unlisted or for followers only, against the same
 * feed on the same data with every post public, as it was before audiences: on the embedded store, and
 * on PostgreSQL when `schemas` is given. Seeds its own data sets (`settings.users`, `settings.posts`) and
 * stops its servers when done.
 */
export async function audiencesLeg(bench: BenchBase, report: Report, schemas?: BenchSchemas): Promise<void> {
  const { settings, scratch, log } = bench
  const running: Running[] = []
  const start = async (dataDir: string, env: Record<string, string> = {}) => {
    const server = await startChirp({ dataDir, jwtSecret: bench.jwtSecret, openFiles: bench.openFiles, env })
    running.push(server)
    return server
  }
  try {
    log(`19. seeding two embedded data sets of ${settings.posts} posts, one with audiences`)
    const publicDir = await scratch.dir('audiences-public')
    const mixedDir = await scratch.dir('audiences-mixed')
    await seedEmbedded(publicDir, settings.users, settings.posts)
    await seedEmbedded(mixedDir, settings.users, settings.posts, AUDIENCES)
    await feedsOf(bench, { store: 'embedded', allPublic: await start(publicDir), mixed: await start(mixedDir) }, report)
    await Promise.all(running.splice(0).map((server) => server.stop()))

    if (schemas) {
      const publicSchema = schemas.name('aud_public')
      const mixedSchema = schemas.name('aud_mixed')
      log(`19. loading two PostgreSQL schemas of ${settings.posts} posts, one with audiences`)
      await seedSchema(schemas.url, publicSchema, settings.users, settings.posts)
      await seedSchema(schemas.url, mixedSchema, settings.users, settings.posts, AUDIENCES)
      const on = async (schema: string) =>
        start(await scratch.dir(schema), { DATABASE_URL: schemas.url, DATABASE_SCHEMA: schema })
      await feedsOf(
        bench,
        { store: 'PostgreSQL', allPublic: await on(publicSchema), mixed: await on(mixedSchema) },
        report,
      )
    }
  } finally {
    await Promise.allSettled(running.splice(0).map((server) => server.stop()))
  }
}
