import { runShard } from '../run-shard.js'

await runShard('s3', 1, 1)
