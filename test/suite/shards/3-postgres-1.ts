import { runShard } from '../run-shard.js'

await runShard('postgres', 1, 2)
