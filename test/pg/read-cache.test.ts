import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/read-cache.test.js'))
