import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { POSTGRES_PASS } from './postgres-pass.js'

/** The repository's root: test files are named relative to it, as tap names them. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The suite's processes, each running many files: `node` the files of test/ that need no browser, on the
 * embedded store; `client` the client's (test/client/, which install a DOM into the process's globals);
 * `postgres` the PostgreSQL pass, with every app a file builds on PostgreSQL; `s3` the object-storage pass,
 * with every app's uploads in a bucket of a real S3-compatible server; `e2e` the browser journeys.
 */
export type Kind = 'node' | 'client' | 'postgres' | 's3' | 'e2e'

/** Not among the others: the image's replay runs apart (npm run test:docker), test/pg/ and test/s3/ are read below. */
const APART = ['test/e2e/', 'test/docker/', 'test/pg/', 'test/s3/', 'test/suite/']

const TEST_FILE = /\.test\.tsx?$/

function testFiles(): string[] {
  return readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((name) => `test/${name.split(path.sep).join('/')}`)
    .filter((file) => TEST_FILE.test(file))
}

const source = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')

/** A file that runs its own tests on PostgreSQL, setting the pass up itself (test/helpers/pg-pass.ts). */
const onPostgresItself = (file: string) => source(file).includes('onPostgres(')

/**
 * What the files of a twin folder run again: test/pg/'s on PostgreSQL, `onPostgres(() =>
 * import('../server/x.test.js'))`, and test/s3/'s with uploads in a bucket, `onS3(...)` alike.
 */
function twinTargets(files: string[], dir: 'test/pg/' | 'test/s3/'): string[] {
  return files
    .filter((file) => file.startsWith(dir))
    .map((file) => {
      const target = /import\('\.\.\/(server\/[\w.-]+)\.js'\)/.exec(source(file))?.[1]
      if (!target) throw new Error(`${file} does not say which file of test/server/ it runs again`)
      return `test/${target}.ts`
    })
}

/** A kind's files, the largest first, so that the files that take longest are not left to the end. */
export function filesOf(kind: Kind): string[] {
  const all = testFiles()
  const own = all.filter((file) => !APART.some((dir) => file.startsWith(dir)))
  let files: string[]
  if (kind === 'e2e') files = all.filter((file) => file.startsWith('test/e2e/'))
  else if (kind === 'client') files = own.filter((file) => file.startsWith('test/client/'))
  else if (kind === 'node') files = own.filter((file) => !file.startsWith('test/client/') && !onPostgresItself(file))
  else if (kind === 's3') files = twinTargets(all, 'test/s3/')
  else {
    const listed = POSTGRES_PASS.map((name) => `test/server/${name}.test.ts`)
    files = [...new Set([...listed, ...twinTargets(all, 'test/pg/'), ...own.filter(onPostgresItself)])]
    const missing = files.filter((file) => !all.includes(file))
    if (missing.length > 0) throw new Error(`the PostgreSQL pass names missing files: ${missing.join(', ')}`)
  }
  const size = (file: string) => statSync(path.join(ROOT, file)).size
  return files.sort((a, b) => size(b) - size(a) || a.localeCompare(b))
}
