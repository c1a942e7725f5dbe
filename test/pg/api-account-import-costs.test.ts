import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-account-import-costs.test.js'))
