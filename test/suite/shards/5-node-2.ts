import { runShard } from '../run-shard.js'

await runShard('node', 2, 3)
