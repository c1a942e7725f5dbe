import { onPostgres } from '../helpers/pg-pass.js'

await onPostgres(() => import('../server/api-media-s3.test.js'))
