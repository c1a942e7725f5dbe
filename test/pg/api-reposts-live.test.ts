import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-reposts-live.test.js'))
