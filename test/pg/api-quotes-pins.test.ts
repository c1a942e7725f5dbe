import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-quotes-pins.test.js'))
