import { onPostgres } from '../helpers/pg-pass.js'

/** toot's journey again, with Chirp on PostgreSQL. */
await onPostgres(() => import('./toot.test.js'))
