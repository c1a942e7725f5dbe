import type { InjectOptions } from 'fastify'
import { buildTestApp, type TestApp, type TestContext } from './app.js'
import { TEST_DATABASE_URL, testSchema } from './pg.js'

/**
 * Two apps side by side, one on each store, driven by the same requests at the same clock: what one
 * answers, the other must. Ids differ between them, so each side names the ids it shows in the order it
 * first shows them; cursors differ in form, so each side keeps its own and only whether one is given is
 * compared. Timestamps come from the shared clock and are compared as they are.
 */
export interface Side {
  name: 'embedded' | 'postgres'
  api: TestApp
  tokens: string[]
  users: string[]
  posts: string[]
  /** Comments by the index of their post in `posts`. */
  comments: { post: number; id: string }[]
  /** Each reader's list being paged, by its name: the cursor of the page to read next. */
  cursors: Map<string, string>
  /** Every id this side has shown, in the order shown, to its name. */
  canon: Map<string, string>
}

export interface Clock {
  now: () => Date
  tick: () => void
}

/** A clock both apps read, moved one second per step, so both stamp every write alike. */
export function sharedClock(): Clock {
  let time = Date.parse('2026-01-01T00:00:00.000Z')
  return { now: () => new Date(time), tick: () => void (time += 1000) }
}

/** An app on the embedded store and one on PostgreSQL, each on the seeded demo database. */
export async function openSides(t: TestContext, clock: Clock): Promise<[Side, Side]> {
  // A poll's day is five steps, so polls close within a run.
  const common = { rateLimit: false, pollDaySeconds: 5 }
  const embedded = await buildTestApp(t, {
    config: { ...common, databaseUrl: undefined },
    options: { now: clock.now },
  })
  const postgres = await buildTestApp(t, {
    config: { ...common, databaseUrl: TEST_DATABASE_URL, databaseSchema: testSchema(t), databasePoolMax: 4 },
    options: { now: clock.now },
  })
  const side = (name: Side['name'], api: TestApp): Side => ({
    name,
    api,
    tokens: [],
    users: [],
    posts: [],
    comments: [],
    cursors: new Map(),
    canon: new Map(),
  })
  return [side('embedded', embedded), side('postgres', postgres)]
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** What differs between the stores by design: tokens are signed with each app's own secret. */
const DROPPED = new Set(['encodedToken', 'token'])

const idless = (value: unknown) =>
  JSON.stringify(value, (_key, child: unknown) => (typeof child === 'string' && UUID.test(child) ? '' : child))
const timeOf = (item: unknown) => (item as { createdAt?: unknown } | null)?.createdAt

/**
 * A list with each run of entries made at one moment in an order of their content. Both stores order
 * such ties by id, and ids are random, so two notifications one request made (a poll's close noticed
 * beside a like) stand in either order; every other order is compared as it is.
 */
function inTies(items: readonly unknown[]): unknown[] {
  const out: unknown[] = []
  for (let start = 0; start < items.length;) {
    let end = start + 1
    while (end < items.length && timeOf(items[end]) !== undefined && timeOf(items[end]) === timeOf(items[start])) end++
    const run = items.slice(start, end)
    out.push(...(run.length > 1 ? run.sort((a, b) => (idless(a) < idless(b) ? -1 : 1)) : run))
    start = end
  }
  return out
}

/** `value` with its ids named in the order this side first showed them, cursors as whether there is one, and keys sorted. */
export function normalise(side: Side, value: unknown): unknown {
  if (typeof value === 'string') {
    if (!UUID.test(value)) return value
    let name = side.canon.get(value)
    if (name === undefined) side.canon.set(value, (name = `id${side.canon.size}`))
    return name
  }
  if (Array.isArray(value)) return inTies(value).map((item) => normalise(side, item))
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    if (DROPPED.has(key)) continue
    const child = (value as Record<string, unknown>)[key]
    out[key] =
      key === 'nextCursor' ? (child === null || child === undefined ? child : 'a cursor') : normalise(side, child)
  }
  return out
}

export interface Answer {
  status: number
  body: unknown
}

/** One request as one side makes it. */
export async function send(side: Side, actor: number | undefined, request: InjectOptions): Promise<Answer> {
  const token = actor === undefined ? undefined : side.tokens[actor]
  const res = await side.api.as(token, { ...request, headers: { prefer: 'return=minimal', ...request.headers } })
  let body: unknown = res.body
  try {
    body = res.json()
  } catch {
    // A body that is not JSON is compared as its text.
  }
  return { status: res.statusCode, body }
}

/** A small seeded generator (mulberry32): the same seed, the same run. */
export class Random {
  #state: number
  constructor(seed: number) {
    this.#state = seed >>> 0
  }
  next(): number {
    let x = (this.#state = (this.#state + 0x6d2b79f5) >>> 0)
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
  int(below: number): number {
    return Math.floor(this.next() * below)
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T
  }
  chance(p: number): boolean {
    return this.next() < p
  }
}

/** Pieces of text, hostile ones among them: NUL, half surrogate pairs, controls, invisible text, too much text. */
const PIECES = [
  'hello',
  'world',
  'again',
  ' ',
  '\n',
  '#drift',
  '#Tags',
  '@maya.lin',
  'https://example.com/a',
  '🐦',
  'é',
  'e\u0301',
  '\u0000',
  '\ud800',
  '\udc00x',
  '\u0007',
  '\u001b[2J',
  '\u0085',
  '\u200b',
  '\u202e',
  '\u2800',
]

export function textOf(random: Random, max = 500): string {
  const roll = random.next()
  if (roll < 0.04) return 'x'.repeat(max + 1)
  if (roll < 0.07) return '🐦'.repeat(max)
  if (roll < 0.1) return ''
  let text = ''
  const pieces = 1 + random.int(6)
  for (let i = 0; i < pieces; i++) text += random.chance(0.8) ? random.pick(PIECES.slice(0, 12)) : random.pick(PIECES)
  return text
}
