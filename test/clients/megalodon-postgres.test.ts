import { onPostgres } from '../helpers/pg-pass.js'

/** megalodon's journey again, with Chirp on PostgreSQL. */
await onPostgres(() => import('./megalodon.test.js'))
