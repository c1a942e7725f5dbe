import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-account-delete-conversations.test.js'))
