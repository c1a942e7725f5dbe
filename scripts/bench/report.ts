import os from 'node:os'

export interface Check {
  leg: number
  measure: string
  value: number
  /** How the value reads in the table, e.g. "0.72×" or "104 ms". */
  shown: string
  goal: string
  /** Null for a figure measured without a goal of its own. */
  met: boolean | null
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

/** 1000000 → 1M, 10000 → 10k: how the table names the two schemas' sizes. */
export const size = (count: number) =>
  count >= 1e6 && count % 1e5 === 0
    ? `${count / 1e6}M`
    : count >= 1e3 && count % 100 === 0
      ? `${count / 1e3}k`
      : String(count)
export function atLeast(leg: number, measure: string, value: number, goal: number, shown = times(value)): Check {
  return { leg, measure, value, shown, goal: `≥ ${goal}`, met: value >= goal }
}

export function atMost(
  leg: number,
  measure: string,
  value: number,
  goal: number,
  shown: string,
  goalShown: string,
): Check {
  return { leg, measure, value, shown, goal: `≤ ${goalShown}`, met: value <= goal }
}

/** A figure the table shows for comparison, with no goal to meet. */
export function measured(leg: number, measure: string, value: number, shown = times(value)): Check {
  return { leg, measure, value, shown, goal: '—', met: null }
}
