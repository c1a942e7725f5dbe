import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { TestApp } from './app.js'
import { testDatabaseUrl, withSql } from './store-under-test.js'

/**
 * Everything the store holds, as text, the way someone with a copy of the data would read it: every
 * file of the data directory but uploads (embedded), or every row of every table of the schema (PostgreSQL).
 */
export async function dumpText(api: Pick<TestApp, 'dataDir' | 'schema'>): Promise<string> {
  if (api.schema !== undefined && testDatabaseUrl !== undefined) {
    return withSql(api.schema, async (sql) => {
      const tables = await sql<{ name: string }[]>`
        SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${api.schema ?? ''}`
      const parts: string[] = []
      for (const { name } of tables) {
        const rows = await sql<{ row: string }[]>`SELECT t::text AS row FROM ${sql(name)} t`
        parts.push(`${name}:`, ...rows.map((r) => r.row))
      }
      return parts.join('\n')
    })
  }
  const entries = await readdir(api.dataDir, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(api.dataDir, file).startsWith(`media${path.sep}`) && !file.endsWith('jwt-secret'))
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n')
}
