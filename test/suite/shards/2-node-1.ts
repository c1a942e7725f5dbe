import { runShard } from '../run-shard.js'

await runShard('node', 1, 3)
