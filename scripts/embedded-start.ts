import { parseArgs } from 'node:util'
import { medianStart } from './bench/embedded-start.js'

/**
 * How long the built server takes to start on embedded databases of different sizes, and how much
 * memory it holds once ready: `npm run build && node --import tsx scripts/embedded-start.ts -- DIR...`,
 * each DIR a data directory that `npm run seed:large` filled. Each is started `--runs` times, one at a
 * time; the table gives the median start and the RSS of that run, per directory and per 1,000 posts.
 * `npm run bench -- --only 17` does the same on data sets of its own.
 */
const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '3' } },
  allowPositionals: true,
})
const RUNS = Math.max(1, Number(values.runs))

const rows: string[] = ['| posts | start (median of ' + RUNS + ') | RSS | RSS per 1,000 posts |', '|---|---|---|---|']
for (const dir of positionals) {
  const median = await medianStart(dir, RUNS)
  rows.push(
    `| ${median.posts.toLocaleString('en')} | ${(median.ms / 1000).toFixed(1)} s | ${median.rssMb.toFixed(0)} MB | ` +
      `${((median.rssMb / median.posts) * 1000).toFixed(2)} MB |`,
  )
}
console.log(rows.join('\n'))
