import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/media-migrate.test.js'))
