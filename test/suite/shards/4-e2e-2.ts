import { runShard } from '../run-shard.js'

await runShard('e2e', 2, 2)
