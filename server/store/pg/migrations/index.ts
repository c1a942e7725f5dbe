import * as initial from './0001_initial.js'

/**
 * One step of the schema. Applied migrations are never edited (their checksum is kept and checked at
 * every start): a change is a new migration with the next version.
 */
export interface Migration {
  version: number
  name: string
  sql: string
}

/** In version order. */
export const MIGRATIONS: readonly Migration[] = [initial]
