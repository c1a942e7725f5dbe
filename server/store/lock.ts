import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { StartupError } from '../errors.js'

class DataDirLockedError extends StartupError {
  constructor(dir: string, pid: number) {
    super(`${dir} is in use by another Chirp process (pid ${pid}). Stop it first, or give this one its own DATA_DIR.`)
  }
}

/** The process start time from /proc, so that a reused pid (pid 1 in a restarted container) is not mistaken for the owner. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

function isAlive(pid: number, startTime: string | undefined): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  const current = startTimeOf(pid)
  return startTime === undefined || current === undefined || current === startTime
}

/**
 * Takes the data directory for this process. Two processes writing one db.json would each overwrite
 * the other's changes, so the second one refuses to start. A lock left by a killed process is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'db.lock')
  const mine = JSON.stringify({ pid: process.pid, startTime: startTimeOf(process.pid) })
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx', mode: 0o600 })
      return () => {
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file)
        } catch {
          // Already gone: nothing to release.
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    let owner: { pid?: unknown; startTime?: unknown } = {}
    try {
      owner = JSON.parse(readFileSync(file, 'utf8')) as typeof owner
    } catch {
      // An unreadable lock file was left by a crash while it was being written.
    }
    if (
      typeof owner.pid === 'number' &&
      isAlive(owner.pid, typeof owner.startTime === 'string' ? owner.startTime : undefined)
    ) {
      throw new DataDirLockedError(dir, owner.pid)
    }
    unlinkSync(file)
  }
  throw new Error(`Could not take the lock ${file}`)
}
