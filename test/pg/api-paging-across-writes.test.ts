import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-paging-across-writes.test.js'))
