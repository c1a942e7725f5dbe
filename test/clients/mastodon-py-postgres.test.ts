import { onPostgres } from '../helpers/pg-pass.js'

/** Mastodon.py's journey again, with Chirp on PostgreSQL. */
await onPostgres(() => import('./mastodon-py.test.js'))
