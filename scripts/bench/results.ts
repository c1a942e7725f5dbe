import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ROOT } from './processes.js'
import type { Check, Machine } from './report.js'

/**
 * The legs fall in two groups, each saved on its own: a run that completes every leg of a group replaces
 * that group's saved figures and keeps the other's, so a PostgreSQL-only run leaves the embedded figures
 * as they were. A run of only some of a group's legs is printed, never saved.
 */
export const GROUPS = [
  { name: 'embedded', title: 'Embedded store', legs: [1, 2, 3, 4, 5, 13, 20, 16, 6, 10, 11, 17, 18, 19] },
  { name: 'postgres', title: 'PostgreSQL', legs: [7, 15, 16, 8, 9, 14, 12] },
] as const
export type GroupName = (typeof GROUPS)[number]['name']

/** What results.json keeps of a group: the table, its details and the raw runs of each leg. */
interface GroupResults {
  machine: Machine
  settings: Record<string, unknown>
  checks: Check[]
  details: string[]
  [leg: string]: unknown
}
export type SavedResults = Partial<Record<GroupName, GroupResults>>

const DIR = path.join(ROOT, 'bench')

function summary(name: GroupName, { settings, postgres }: GroupResults): string[] {
  const s = settings as Record<string, number>
  const runs =
    `Reads: ${s.connections} connections; writes: ${s.writeConnections} connections; ` +
    `${s.duration} s a run, ${s.rounds} interleaved rounds, medians.`
  if (name === 'embedded') return [`Data set: ${s.users} users, ${s.posts} posts (\`npm run seed:large\`). ${runs}`]
  return [
    `PostgreSQL ${String(postgres)} on 127.0.0.1, two schemas loaded by \`npm run seed:large\` with the same ${s.pgUsers} users: ` +
      `one with ${s.pgPosts} posts, one with ${s.posts}. ${runs}`,
  ]
}

/** [1, 2, 3, 4, 5, 6, 10, 11] → "legs 1 to 6, 10 and 11": in order, runs of three or more as spans. */
function legsOf(unordered: readonly number[]): string {
  const legs = [...unordered].sort((a, b) => a - b)
  const spans: string[] = []
  for (let i = 0; i < legs.length;) {
    let j = i
    while (j + 1 < legs.length && (legs[j + 1] as number) === (legs[j] as number) + 1) j++
    if (j - i >= 2) spans.push(`${legs[i]} to ${legs[j]}`)
    else spans.push(...legs.slice(i, j + 1).map(String))
    i = j + 1
  }
  return `${spans.length > 1 || legs.length > 1 ? 'legs' : 'leg'} ${spans.slice(0, -1).join(', ')}${spans.length > 1 ? ' and ' : ''}${spans.at(-1) ?? ''}`
}

function section(name: GroupName, title: string, legs: readonly number[], group: GroupResults): string[] {
  const host = group.machine
  const rows = group.checks.map(
    (c) => `| ${c.leg} | ${c.measure} | ${c.shown} | ${c.goal} | ${c.met === null ? '—' : c.met ? 'yes' : '**no**'} |`,
  )
  return [
    `## ${title}: ${legsOf(legs)}`,
    '',
    `Measured ${host.date} on ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}, ${host.os}.`,
    ...summary(name, group),
    '',
    '| leg | measure | result | goal | met |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...(group.details.length > 0 ? [...group.details, ''] : []),
  ]
}

export function render(results: SavedResults): string {
  const sections = GROUPS.flatMap(({ name, title, legs }) => {
    const group = results[name]
    return group ? section(name, title, legs, group) : []
  })
  return ['# Chirp benchmark', '', ...sections].join('\n')
}

/** The saved figures; a results.json from before the groups holds the embedded legs alone. */
async function readSaved(): Promise<SavedResults> {
  const text = await readFile(path.join(DIR, 'results.json'), 'utf8').catch(() => undefined)
  if (text === undefined) return {}
  const saved = JSON.parse(text) as SavedResults & Partial<GroupResults>
  if (saved.embedded || saved.postgres) return saved
  return saved.checks ? { embedded: { ...(saved as GroupResults), details: saved.details ?? [] } } : {}
}

/** The figures of `npm run bench:scroll`, written into results.md by hand: a run of the legs keeps them. */
const KEPT_SECTION = '\n## Scrolling a long profile'

/** Replaces the saved figures of the groups in `run`, keeps the others, and writes both files. */
export async function save(run: SavedResults): Promise<string> {
  const merged = { ...(await readSaved()), ...run }
  await mkdir(DIR, { recursive: true })
  await writeFile(path.join(DIR, 'results.json'), `${JSON.stringify(merged, null, 2)}\n`)
  const before = await readFile(path.join(DIR, 'results.md'), 'utf8').catch(() => '')
  const kept = before.includes(KEPT_SECTION) ? before.slice(before.indexOf(KEPT_SECTION)) : ''
  await writeFile(path.join(DIR, 'results.md'), render(merged) + kept)
  return DIR
}
