import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Settings } from './context.js'
import { ROOT } from './processes.js'

export interface Check {
  leg: number
  measure: string
  value: number
  /** How the value reads in the table, e.g. "0.72×" or "104 ms". */
  shown: string
  goal: string
  met: boolean
}

export interface Machine {
  cpu: string
  cores: number
  memoryGiB: number
  node: string
  os: string
  date: string
}

export function machine(): Machine {
  const cpus = os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    date: new Date().toISOString(),
  }
}

export const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'not measurable')
export const ms = (value: number) => `${value.toFixed(1)} ms`
export const percent = (value: number) => `${(value * 100).toFixed(2)} %`
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export function atLeast(leg: number, measure: string, value: number, goal: number, shown = times(value)): Check {
  return { leg, measure, value, shown, goal: `≥ ${goal}`, met: value >= goal }
}

export function atMost(leg: number, measure: string, value: number, goal: number, shown: string, goalShown: string): Check {
  return { leg, measure, value, shown, goal: `≤ ${goalShown}`, met: value <= goal }
}

export function markdown(checks: readonly Check[], details: readonly string[], host: Machine, settings: Settings): string {
  const rows = checks.map((c) => `| ${c.leg} | ${c.measure} | ${c.shown} | ${c.goal} | ${c.met ? 'yes' : '**no**'} |`)
  return [
    '# Chirp benchmark',
    '',
    `Measured ${host.date} on ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}, ${host.os}.`,
    `Data set: ${settings.users} users, ${settings.posts} posts (\`npm run seed:large\`). Reads: ${settings.connections} connections;`,
    `writes: ${settings.writeConnections} connections; ${settings.duration} s a run, ${settings.rounds} interleaved rounds, medians.`,
    '',
    '| leg | measure | result | goal | met |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...details,
    '',
  ].join('\n')
}

export async function save(results: unknown, text: string): Promise<string> {
  const dir = path.join(ROOT, 'bench')
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
  await writeFile(path.join(dir, 'results.md'), text)
  return dir
}
