import t from 'tap'
import { MSG } from '../../server/errors.js'
import { linesOf, listAddresses } from '../../server/services/account-lists.js'

/** Mastodon's lists are read as they arrive: never whole, and no further than the entry limit. */

await t.test('lines are split across chunks, with CRLF and UTF-8 cut anywhere', async (t) => {
  const bytes = Buffer.from('Account address\r\nzoë@chirp.example\nbea\r\n\nlast')
  const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1))
  const lines: string[] = []
  for await (const line of linesOf(chunks)) lines.push(line)
  t.strictSame(lines, ['Account address', 'zoë@chirp.example', 'bea', '', 'last'])
})

await t.test('an endless list stops at the entry past the limit', async (t) => {
  let pulled = 0
  async function* endless() {
    for (;;) {
      pulled++
      yield `person_${pulled}@chirp.example\n`
    }
  }
  await t.rejects(listAddresses(linesOf(endless()), 'chirp.example', 20), { message: MSG.importTooManyEntries })
  t.ok(pulled <= 22, `read ${pulled} lines for a limit of 20`)
})

await t.test('an endless line is refused once it is longer than any list line', async (t) => {
  let pulled = 0
  async function* endless() {
    for (;;) {
      pulled++
      yield 'x'.repeat(100)
    }
  }
  await t.rejects(listAddresses(linesOf(endless()), 'chirp.example', 20), { message: MSG.importInvalidFile })
  t.ok(pulled <= 11, `read ${pulled} chunks`)
})

await t.test('addresses of other servers are skipped and counted, a header and blank lines are not', async (t) => {
  const lines = ['Account address,Show boosts', 'ada@chirp.example,true', '@bea', 'cy@mastodon.social', '']
  t.strictSame(await listAddresses(lines, 'chirp.example', 3), { names: ['ada', 'bea'], skipped: 1 })
  await t.rejects(listAddresses(lines, 'chirp.example', 2), { message: MSG.importTooManyEntries })
})
