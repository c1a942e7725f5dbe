import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-admin-permissions.test.js'))
