import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/admin-cli.test.js'))
