import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/events-resume.test.js'))
