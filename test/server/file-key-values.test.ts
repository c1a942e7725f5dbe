import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { FileKeyValues } from '../../server/store/memory-kv.js'
import { tempDataDir } from '../helpers/app.js'

/**
 * The embedded store's keys and values outlive a restart (Store.keyValues): what the Mastodon API keeps
 * there (idempotency keys, uploads' records) is read back by the next process on the data directory.
 */
const at = '2026-01-01T00:00:00.000Z'
const later = '2026-01-01T02:00:00.000Z'

await t.test('what is set or taken away is there after reopening; what expired is not written', async (t) => {
  const dir = await tempDataDir(t)
  let clock = at
  const first = await FileKeyValues.open(dir, () => clock)
  await first.set('kept', 'one', undefined)
  await first.set('for an hour', 'two', '2026-01-01T01:00:00.000Z')
  await first.set('gone', 'three', undefined)
  await first.delete('gone')
  t.ok(await first.compareAndSet('claimed', undefined, 'four', later, at), 'a claim')
  t.notOk(await first.compareAndSet('claimed', undefined, 'five', later, at), 'claimed once')

  const again = await FileKeyValues.open(dir, () => clock)
  t.equal(await again.get('kept', at), 'one', 'read back')
  t.equal(await again.get('for an hour', at), 'two')
  t.equal(await again.get('gone', at), undefined, 'a delete is kept too')
  t.notOk(await again.compareAndSet('claimed', undefined, 'five', later, at), 'a claim holds across a restart')

  clock = later
  await again.set('after an hour', 'six', undefined)
  const saved = JSON.parse(await readFile(path.join(dir, 'key-values.json'), 'utf8')) as { entries: string[][] }
  t.notOk(
    saved.entries.some(([key]) => key === 'for an hour'),
    'an expired entry is left out of the file',
  )
})

await t.test('a damaged file stops the start, as a damaged database does', async (t) => {
  const dir = await tempDataDir(t)
  await writeFile(path.join(dir, 'key-values.json'), '{"version": 2}')
  await t.rejects(FileKeyValues.open(dir), /key-values\.json/)
})
