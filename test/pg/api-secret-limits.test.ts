import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-secret-limits.test.js'))
