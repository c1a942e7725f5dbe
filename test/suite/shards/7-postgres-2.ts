import { runShard } from '../run-shard.js'

await runShard('postgres', 2, 2)
