import { onS3 } from '../helpers/s3.js'

await onS3(() => import('../server/mastodon-media.test.js'))
