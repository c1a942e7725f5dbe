import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-cross-site.test.js'))
