import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-password-reset.test.js'))
