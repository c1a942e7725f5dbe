import { readDatabaseEnv } from '../server/cli/database-env.js'
import type { FeedSort } from '../server/schemas/posts.js'
import { PgStore } from '../server/store/pg/pg-store.js'

/**
 * Where a home-feed read's time goes on PostgreSQL, for the accounts `npm run seed:large` makes
 * (bench_few follows 10, bench_many 1,000, bench_popular is followed by thousands): the token check's
 * read of the user (the whole record against getTokenHolder), and the page's query (by an array of
 * authors against feedOf). Each figure is the mean of 20 reads after 3 unmeasured ones, one at a time.
 * `DATABASE_URL=… DATABASE_SCHEMA=… node --import tsx scripts/pg-feed-profile.ts`
 */
const READS = 20
const { url, schema } = readDatabaseEnv(process.env)
const store = await PgStore.open({
  url,
  poolMax: 2,
  schema,
  seed: async () => {
    throw new Error(`${schema} holds no data: run npm run seed:large with DATABASE_URL first`)
  },
})

async function mean(read: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 3; i++) await read()
  const started = performance.now()
  for (let i = 0; i < READS; i++) await read()
  return `${((performance.now() - started) / READS).toFixed(2)} ms`
}

try {
  for (const name of ['bench_few', 'bench_many', 'bench_popular']) {
    const user = await store.getUserByUsername(name)
    if (!user) throw new Error(`no ${name} in ${schema}: run npm run seed:large with DATABASE_URL first`)
    const authorIds = [user._id, ...user.following]
    console.log(
      `${name} (follows ${user.following.length}, followed by ${user.followers.length}): ` +
        `getUser ${await mean(() => store.getUser(user._id))}, getTokenHolder ${await mean(() => store.getTokenHolder(user._id))}`,
    )
    for (const sort of ['latest', 'trending'] as FeedSort[]) {
      const byAuthors = await mean(() => store.listPosts({ sort, limit: 20, authorIds }))
      const feedOf = await mean(() => store.listPosts({ sort, limit: 20, feedOf: user._id }))
      console.log(`  ${sort}: by authors ${byAuthors}, feedOf ${feedOf}`)
    }
  }
} finally {
  await store.close()
}
