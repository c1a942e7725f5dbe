import { runShard } from '../run-shard.js'

await runShard('node', 3, 3)
