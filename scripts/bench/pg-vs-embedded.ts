import { BENCH_PASSWORD } from '../seed-large/people.js'
import { authHeaders, login, pageOf, type Session } from './api.js'
import { compare, postTaker, type BenchBase } from './context.js'
import { embeddedDataSet, serveCopy, unlikedBy } from './embedded.js'
import type { Report } from './legs.js'
import { load, median, pairedRatio } from './load.js'
import { underWrites, writesAchieved, type WriteRates, type WriterReport } from './mixed.js'
import { unlikedPosts, type PgBench } from './pg.js'
import type { Running } from './processes.js'
import { atLeast, kb, ms, size } from './report.js'

/** The light write load on the side being read: likes and unlikes, and new posts, by bench_writer. */
const RATES: WriteRates = { likes: 50, posts: 10 }
const ACCOUNTS = [
  { who: 'few', shown: 'bench_few (following 10)' },
  { who: 'many', shown: 'bench_many (following 1,000)' },
  { who: 'popular', shown: 'bench_popular' },
] as const
const SORTS = ['latest', 'trending'] as const
const PAGE_POSTS = 20
const GOAL = 0.3
/** The page Chirp's own client asks for. */
const feedPath = (sort: string) => `/api/feed?sort=${sort}&limit=${PAGE_POSTS}&compact=1`

type Who = (typeof ACCOUNTS)[number]['who']
type Side = { readers: Record<Who, Session>; writer: Session; takePosts: (count: number) => string[] }

/**
 * Leg 15: each home feed on PostgreSQL at the large schema's size against the same account on the
 * embedded store at the embedded legs' size (a server of its own on a copy of that data set, started
 * beside the PostgreSQL servers for this leg), each read while RATES of writes land on the side being
 * read, in interleaved rounds. The writer likes the newest posts it has not liked, as many as the
 * leg's runs take, so likes land on what people read on both sides.
 */
export async function pgAgainstEmbedded(bench: BenchBase, pg: PgBench, running: Running[], report: Report) {
  const { settings } = bench
  const began = performance.now()
  const runs = ACCOUNTS.length * SORTS.length * (settings.rounds + 1)
  const needed = runs * Math.ceil((RATES.likes * (settings.duration + 2)) / 2)
  const dataSet = await embeddedDataSet(bench)
  const chirp = await serveCopy(bench, dataSet, 'beside-pg', running)
  try {
    const session = (username: string) => login(chirp.url, username, BENCH_PASSWORD)
    const embedded: Side = {
      readers: {
        few: await session('bench_few'),
        many: await session('bench_many'),
        popular: await session('bench_popular'),
      },
      writer: await session('bench_writer'),
      takePosts: postTaker(unlikedBy(dataSet.database, 'bench_writer').slice(-needed)),
    }
    const postgres: Side = {
      readers: { few: pg.large.few, many: pg.large.many, popular: pg.large.popular },
      writer: pg.large.writer,
      takePosts: postTaker(await unlikedPosts(pg.url, pg.large.schema, needed)),
    }
    const sizes = { postgres: size(settings.pgPosts), embedded: size(settings.posts) }
    const rows = []
    for (const sort of SORTS) {
      for (const { who, shown } of ACCOUNTS) {
        const path = feedPath(sort)
        const writes: Record<keyof typeof sizes, WriterReport[]> = { postgres: [], embedded: [] }
        const side = (name: keyof typeof sizes) => {
          const { readers, writer, takePosts } = name === 'postgres' ? postgres : embedded
          const reader = readers[who]
          const read = (duration: number) =>
            load({ url: reader.base + path, headers: authHeaders(reader), connections: settings.connections, duration })
          return underWrites(bench, { session: writer, takePosts }, RATES, read, writes[name])
        }
        const comparison = await compare(
          bench,
          `15. home feed ${sort}, ${shown}: PostgreSQL ${sizes.postgres} vs embedded ${sizes.embedded}, under writes`,
          { postgres: side('postgres'), embedded: side('embedded') },
        )
        rows.push({
          sort,
          who,
          shown,
          ...comparison,
          ratio: pairedRatio(comparison.runs.postgres, comparison.runs.embedded),
          pages: {
            postgres: await pageOf(postgres.readers[who], path),
            embedded: await pageOf(embedded.readers[who], path),
          },
          writes,
          writesPerSecond: {
            postgres: writesAchieved(bench, writes.postgres),
            embedded: writesAchieved(bench, writes.embedded),
          },
        })
      }
    }
    reportRows(rows, sizes, report)
    bench.log(`15. took ${((performance.now() - began) / 1000).toFixed(0)} s`)
  } finally {
    await chirp.stop()
  }
}

interface Row {
  sort: string
  shown: string
  ratio: number
  medians: Record<'postgres' | 'embedded', { rps: number; p99: number }>
  pages: Record<'postgres' | 'embedded', { bytes: number; items: number }>
  writes: Record<'postgres' | 'embedded', WriterReport[]>
  writesPerSecond: Record<'postgres' | 'embedded', number>
}

function reportRows(rows: Row[], sizes: Record<'postgres' | 'embedded', string>, { checks, details, results }: Report) {
  results.feedAgainstEmbedded = { rates: RATES, rows }
  for (const row of rows) {
    checks.push(
      atLeast(
        15,
        `feed ${row.sort}, ${row.shown}, compact, under writes: PostgreSQL ${sizes.postgres} ÷ embedded ${sizes.embedded}`,
        row.ratio,
        GOAL,
      ),
    )
    const side = (name: 'postgres' | 'embedded') => {
      const { rps, p99 } = row.medians[name]
      const page = row.pages[name]
      const full = page.items === PAGE_POSTS ? '' : `, **not a full page of ${PAGE_POSTS}**`
      const failed = median(row.writes[name].map((w) => w.failed))
      return (
        `${rps.toFixed(0)} (p99 ${ms(p99)}, ${page.items} posts${full}, ${kb(page.bytes)} a page; ` +
        `writes ${row.writesPerSecond[name].toFixed(1)}/s, ${failed} failed a run)`
      )
    }
    details.push(
      `Leg 15, ${row.sort}, ${row.shown} (req/s, medians): PostgreSQL ${side('postgres')}, embedded ${side('embedded')}.`,
    )
  }
}
