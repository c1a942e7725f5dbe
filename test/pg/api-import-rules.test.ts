import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-import-rules.test.js'))
