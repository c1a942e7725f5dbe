import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t, { type Test } from 'tap'
import { CorruptDatabaseError } from '../../server/store/durable-file.js'
import { readDatabaseFiles, writeDatabaseFiles } from '../../server/store/database-files.js'
import { shardOf, type Manifest } from '../../server/store/layout.js'
import { EmbeddedStore, type EmbeddedStoreOptions } from '../../server/store/embedded-store.js'
import type { Database, PostRecord } from '../../server/store/types.js'
import { tempDataDir } from '../helpers/app.js'
import { postRecord, userRecord } from '../helpers/records.js'

/** The sharded layout of the store (server/store/layout.ts): what a write puts on disk, and what a start reads back. */
const user = userRecord
/** Posts by u0, a second apart, so their order is their number. */
const post = (i: number): PostRecord => ({
  ...postRecord(i, 'u0'),
  createdAt: new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 1000).toISOString(),
})
const database = (users: number, posts: number): Database => ({
  version: 1,
  users: Array.from({ length: users }, (_, i) => user(i)),
  posts: Array.from({ length: posts }, (_, i) => post(i)),
})

const manifestOf = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'db.json'), 'utf8')) as Manifest
const segmentsIn = async (dir: string) =>
  (await readdir(path.join(dir, 'db'))).filter((name) => name.startsWith('segment-')).sort()

async function open(t: Test, dir: string, data: Database, options: Partial<EmbeddedStoreOptions> = {}) {
  const store = await EmbeddedStore.open({ dataDir: dir, seed: async () => structuredClone(data), ...options })
  t.teardown(() => store.close())
  return store
}

const edit = (store: EmbeddedStore, id: string, content: string) =>
  store.transaction(async (tx) => {
    const current = (await tx.getPost(id)) as PostRecord
    await tx.updatePost(id, { content, mediaUrl: current.mediaUrl, type: current.type }, current.updatedAt)
  })

await t.test('a new directory is seeded as a manifest in db.json and one segment', async (t) => {
  const dir = await tempDataDir(t)
  await open(t, dir, database(3, 5))
  const manifest = await manifestOf(dir)
  t.equal(manifest.version, 10)
  t.equal(manifest.posts.length, 16, 'the smallest layout')
  t.equal(manifest.notifications.length, 16, 'notifications have shards of their own, even before there are any')
  t.equal(manifest.revokedTokens.length, 16, 'and so do revoked tokens')
  t.ok(
    [...manifest.users, ...manifest.posts, ...manifest.notifications, ...manifest.revokedTokens].every(
      (generation) => generation === manifest.generation,
    ),
  )
  t.strictSame(await segmentsIn(dir), ['segment-000001.json'])
  const back = await readDatabaseFiles(dir)
  t.strictSame(back.posts.map((p) => p._id).sort(), ['p0', 'p1', 'p2', 'p3', 'p4'])
  t.equal(back.users.length, 3)
})

await t.test('a write serialises only the shard it touched, and the old copy is removed once unused', async (t) => {
  const dir = await tempDataDir(t)
  const store = await open(t, dir, database(2, 40))
  await edit(store, 'p7', 'edited')
  const manifest = await manifestOf(dir)
  const segment = JSON.parse(await readFile(path.join(dir, 'db', 'segment-000002.json'), 'utf8')) as {
    shards: Record<string, PostRecord[]>
  }
  const shard = shardOf('p7', manifest.posts.length)
  t.strictSame(Object.keys(segment.shards), [`posts/${shard}`], 'one shard')
  t.ok(segment.shards[`posts/${shard}`]?.some((p) => p._id === 'p7' && p.content === 'edited'))
  t.equal(manifest.posts[shard], 2, 'the manifest points the shard at the new segment')
  t.equal(
    manifest.posts.filter((generation) => generation === 1).length,
    manifest.posts.length - 1,
    'the others stay put',
  )
})

await t.test('writes that arrive together share one segment; per-write mode gives each its own', async (t) => {
  for (const flush of ['shared', 'per-write'] as const) {
    const dir = await tempDataDir(t)
    const store = await open(t, dir, database(2, 40), { flush })
    await Promise.all(Array.from({ length: 10 }, (_, i) => edit(store, `p${i}`, `burst ${i}`)))
    const generation = (await manifestOf(dir)).generation
    if (flush === 'shared') t.ok(generation <= 3, `shared: ${generation - 1} flushes for 10 writes`)
    else t.equal(generation, 11, 'per-write: one flush each')
    const back = await readDatabaseFiles(dir)
    t.ok(
      Array.from({ length: 10 }, (_, i) => `p${i}`).every((id) =>
        back.posts.find((p) => p._id === id)?.content.startsWith('burst'),
      ),
    )
  }
})

await t.test(
  'a version-1 db.json is read as it is and kept as db.v1.json when the first write converts it',
  async (t) => {
    const dir = await tempDataDir(t)
    const original = JSON.stringify(database(2, 3))
    await writeFile(path.join(dir, 'db.json'), original)
    const store = await open(t, dir, database(0, 0))
    t.equal(await readFile(path.join(dir, 'db.json'), 'utf8'), original, 'opening writes nothing')
    t.equal((await store.getPost('p1'))?.content, 'post 1')
    await edit(store, 'p1', 'converted')
    t.equal((await manifestOf(dir)).version, 10)
    t.equal(await readFile(path.join(dir, 'db.v1.json'), 'utf8'), original, 'the original, byte for byte')
    t.equal((await readDatabaseFiles(dir)).posts.find((p) => p._id === 'p1')?.content, 'converted')
  },
)

await t.test('a damaged or missing segment stops the start, naming the file and leaving it alone', async (t) => {
  for (const [what, damage, reason] of [
    ['invalid JSON', (file: string) => writeFile(file, '{"version":2,'), /invalid JSON/],
    ['not a segment', (file: string) => writeFile(file, '{"hello":1}'), /not a Chirp database/],
    ['missing', (file: string) => import('node:fs/promises').then((fs) => fs.unlink(file)), /missing/],
  ] as const) {
    const dir = await tempDataDir(t)
    const store = await EmbeddedStore.open({ dataDir: dir, seed: async () => database(2, 3) })
    await store.close()
    const file = path.join(dir, 'db', 'segment-000001.json')
    await damage(file)
    const error = await EmbeddedStore.open({ dataDir: dir, seed: async () => database(0, 0) }).then(
      () => undefined,
      (caught: unknown) => caught,
    )
    t.type(error, CorruptDatabaseError, what)
    t.match((error as Error).message, reason, `${what}: says why`)
    t.match((error as Error).message, file, `${what}: names the segment`)
  }
})

await t.test('a failed flush leaves memory as the disk has it and removes its segment', async (t) => {
  const dir = await tempDataDir(t)
  const store = await open(t, dir, database(2, 5))
  // A directory where db.json's temporary file goes: the segment is written, the manifest cannot be.
  const blocker = path.join(dir, `db.json.${process.pid}.tmp`)
  await mkdir(blocker)
  await t.rejects(edit(store, 'p2', 'never stored'))
  t.equal((await store.getPost('p2'))?.content, 'post 2', 'memory rolled back')
  t.strictSame(await segmentsIn(dir), ['segment-000001.json'], 'the unnamed segment is gone')
  await import('node:fs/promises').then((fs) => fs.rm(blocker, { recursive: true }))
  await edit(store, 'p2', 'stored now')
  t.equal((await readDatabaseFiles(dir)).posts.find((p) => p._id === 'p2')?.content, 'stored now')
})

await t.test('segments no manifest names are removed at start', async (t) => {
  const dir = await tempDataDir(t)
  const store = await EmbeddedStore.open({ dataDir: dir, seed: async () => database(2, 3) })
  await store.close()
  await writeFile(path.join(dir, 'db', 'segment-000099.json'), '{"version":2,"generation":99,"shards":{}}')
  await open(t, dir, database(0, 0))
  t.strictSame(await segmentsIn(dir), ['segment-000001.json'])
})

await t.test('a segment mostly superseded is carried forward, so old segments do not pile up', async (t) => {
  const dir = await tempDataDir(t)
  const store = await open(t, dir, database(200, 1024))
  const shards = (await manifestOf(dir)).posts.length
  const byShard = new Map<number, string>()
  for (let i = 0; i < 1024; i++) byShard.set(shardOf(`p${i}`, shards), `p${i}`)
  // Every post shard and every user shard rewritten: the first segment, which held all 512 shards, is left
  // holding the 192 (empty) shards of notifications, revoked tokens, reports, the audit log, invites, held
  // names, jobs, apps, authorization codes, markers, push subscriptions and custom emoji, fewer than half.
  for (const id of byShard.values()) await edit(store, id, 'moved')
  await store.transaction(async (tx) => {
    for (let i = 0; i < 200; i++) await tx.updateProfile(user(i)._id, { bio: 'moved' }, user(i).updatedAt)
  })
  t.ok((await segmentsIn(dir)).includes('segment-000001.json'), 'still named by a few shards')
  await edit(store, 'p0', 'once more')
  t.notOk((await segmentsIn(dir)).includes('segment-000001.json'), 'the next flush carried its shards forward')
  const manifest = await manifestOf(dir)
  const empties = [
    manifest.notifications,
    manifest.revokedTokens,
    manifest.reports,
    manifest.auditLog,
    manifest.invites,
    manifest.reservedNames,
    manifest.jobs,
    manifest.apps,
    manifest.authorizationCodes,
    manifest.markers,
    manifest.pushSubscriptions,
    manifest.customEmojis,
  ]
  t.ok(empties.flat().every((generation) => generation > 1))
  t.equal((await readDatabaseFiles(dir)).posts.length, 1024, 'nothing lost on the way')
})

await t.test('a database grown past its layout is redrawn into more shards on the next write', async (t) => {
  const dir = await tempDataDir(t)
  await writeDatabaseFiles(dir, database(1, 8))
  t.equal((await manifestOf(dir)).posts.length, 16)
  const grown = await readDatabaseFiles(dir)
  grown.posts.push(...Array.from({ length: 400 }, (_, i) => post(100 + i)))
  // Grown behind the manifest's back: written with the same 16 shards.
  const store = await open(t, dir, database(0, 0))
  await store.transaction(async (tx) => {
    for (const extra of grown.posts.slice(8)) await tx.insertPost(extra)
  })
  await store.close()
  const reopened = await open(t, dir, database(0, 0))
  await edit(reopened, 'p0', 'after the redraw')
  t.equal((await manifestOf(dir)).posts.length, 128, 'about four posts a shard')
  const back = await readDatabaseFiles(dir)
  t.equal(back.posts.length, 408)
  t.equal(back.posts.find((p) => p._id === 'p0')?.content, 'after the redraw')
})

await t.test('a whole large database is written as several segments, and read back whole', async (t) => {
  const dir = await tempDataDir(t)
  await writeDatabaseFiles(dir, database(10, 5000))
  const manifest = await manifestOf(dir)
  t.equal(manifest.posts.length, 2048)
  t.ok((await segmentsIn(dir)).length >= 2, 'no one file holds it all')
  const back = await readDatabaseFiles(dir)
  t.equal(back.posts.length, 5000)
  t.equal(back.users.length, 10)
})
