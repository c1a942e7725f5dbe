import { runShard } from '../run-shard.js'

await runShard('client', 2, 2)
