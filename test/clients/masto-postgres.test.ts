import { onPostgres } from '../helpers/pg-pass.js'

/** masto.js's journey again, with Chirp on PostgreSQL. */
await onPostgres(() => import('./masto.test.js'))
