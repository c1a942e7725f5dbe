import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/job-queue.test.js'))
