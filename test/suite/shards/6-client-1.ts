import { runShard } from '../run-shard.js'

await runShard('client', 1, 2)
