import { pageOf, type Session } from './api.js'
import type { Report } from './legs.js'
import { atMost, kb } from './report.js'

/** Who reads: the heaviest home feeds of the generated data set, the one of its most followed account among them. */
export interface PageReaders {
  popular: Session
  many: Session
}

/**
 * The heaviest pages there are: the most liked and commented posts. `/api/posts` has no trending order,
 * so Explore's page is its newest; the trending home feeds of `bench_popular` (its people's posts, most
 * liked by many) and of `bench_many` (1,000 people's) are the most liked of all.
 */
const PAGES = [
  { path: '/api/posts?limit=20', shown: 'Explore (newest)', reader: 'popular' },
  { path: '/api/feed?sort=trending&limit=20', shown: "bench_popular's home feed, trending", reader: 'popular' },
  { path: '/api/feed?sort=trending&limit=20', shown: "bench_many's home feed, trending", reader: 'many' },
] as const
const PAGE_POSTS = 20
const GOALS = { compact: 30 * 1024, full: 150 * 1024 }

/**
 * Leg 16: each page in both forms, compact (`compact=1`, what Chirp's client asks for) and full, as the
 * server sends it without compression, and the largest of each form against its goal. `where` names the store
 * and its size.
 */
export async function pageSizeLeg(readers: PageReaders, where: string, { checks, details, results }: Report) {
  const pages = []
  for (const page of PAGES) {
    const session = readers[page.reader]
    pages.push({
      ...page,
      compact: await pageOf(session, `${page.path}&compact=1`),
      full: await pageOf(session, page.path),
    })
  }
  results.pageSize = pages
  const shown = (page: { bytes: number; items: number }) =>
    `${kb(page.bytes)}${page.items === PAGE_POSTS ? '' : ` (${page.items} posts, not ${PAGE_POSTS})`}`
  for (const form of ['compact', 'full'] as const) {
    const largest = Math.max(...pages.map((page) => page[form].bytes))
    const goal = GOALS[form]
    checks.push(
      atMost(16, `largest ${PAGE_POSTS}-post ${form} page, ${where}`, largest, goal, kb(largest), `${goal / 1024} KB`),
    )
  }
  details.push(
    `Leg 16, ${where} (bytes as sent, uncompressed), compact / full: ` +
      pages.map((page) => `${page.shown} ${shown(page.compact)} / ${shown(page.full)}`).join('; ') +
      '.',
  )
}
