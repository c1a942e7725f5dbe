import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-suspension-interactions.test.js'))
