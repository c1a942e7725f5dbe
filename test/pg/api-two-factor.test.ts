import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-two-factor.test.js'))
