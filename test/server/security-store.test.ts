import * as fsp from 'node:fs/promises'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t, { type Test } from 'tap'
import { StartupError } from '../../server/errors.js'
import { readDatabaseFiles } from '../../server/store/database-files.js'
import { lockDataDir } from '../../server/store/lock.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import type { UserRecord } from '../../server/store/types.js'
import { startApp, tempDataDir, testConfig } from '../helpers/app.js'
import { smallDatabase } from '../helpers/records.js'
import { buildSeededApp, snapshotDb } from '../helpers/seeded.js'

/**
 * Data safety, proved on the store's behaviour rather than its layout (which the benchmarks may change):
 * writes are synced before they replace anything, a second process is locked out, a failed write leaves
 * memory and disk agreeing, and a damaged or empty db.json is never replaced.
 */
const seed = async () => smallDatabase(2, 0)
const bio = async (store: EmbeddedStore, id: string) => (await store.getUser(id))?.bio
const setBio = (store: EmbeddedStore, id: string, value: string) =>
  store.transaction(async (tx) => {
    const user = (await tx.getUser(id)) as UserRecord
    await tx.updateProfile(user._id, { bio: value }, user.updatedAt)
  })

/**
 * fs/promises as the store sees it, recording each call, with rename failing while `failing` is set and
 * fsync failing on the file or directory at `failSyncOf`.
 */
function recordingFs(t: Test) {
  const calls: string[] = []
  const state = { failing: false, failSyncOf: undefined as string | undefined }
  const name = (p: unknown) => path.basename(String(p))
  const fs = t.createMock(fsp, {
    open: async (file: string, flags: string, mode?: number) => {
      const handle = await fsp.open(file, flags, mode)
      calls.push(`open ${name(file)}`)
      return new Proxy(handle, {
        get(target, key) {
          const value = Reflect.get(target, key, target) as unknown
          if (typeof value !== 'function' || !['writeFile', 'write', 'sync', 'close'].includes(String(key))) {
            return typeof value === 'function' ? (value.bind(target) as unknown) : value
          }
          return (...args: unknown[]) => {
            calls.push(`${String(key)} ${name(file)}`)
            if (key === 'sync' && state.failSyncOf === path.resolve(file)) {
              return Promise.reject(Object.assign(new Error('injected: input/output error'), { code: 'EIO' }))
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args)
          }
        },
      })
    },
    rename: async (from: string, to: string) => {
      if (state.failing) throw Object.assign(new Error('injected: no space left on device'), { code: 'ENOSPC' })
      calls.push(`rename ${name(from)} -> ${name(to)}`)
      return fsp.rename(from, to)
    },
  })
  return { fs, calls, state }
}

await t.test('a write is synced to its own file before it replaces db.json, and the directory after', async (t) => {
  const { fs, calls, state } = recordingFs(t)
  const { writeFileDurably } = await t.mockImport<typeof import('../../server/store/durable-file.js')>(
    '../../server/store/durable-file.js',
    {
      'node:fs/promises': fs,
    },
  )
  const dir = await tempDataDir(t)
  await writeFile(path.join(dir, 'db.json'), '{"old":true}')
  await writeFileDurably(path.join(dir, 'db.json'), '{"new":true}')
  const rename = calls.findIndex((c) => c.startsWith('rename'))
  const temp = calls[rename]?.split(' ')[1] as string
  t.not(temp, 'db.json', 'written to a temporary file first')
  t.ok(calls.indexOf(`writeFile ${temp}`) < calls.indexOf(`sync ${temp}`), 'the contents are written, then fsynced')
  t.ok(calls.indexOf(`sync ${temp}`) < rename, 'fsynced before the rename')
  t.ok(calls.indexOf(`close ${temp}`) < rename, 'closed before the rename')
  t.ok(calls.lastIndexOf(`sync ${path.basename(dir)}`) > rename, 'the directory is fsynced after the rename')
  t.equal(await readFile(path.join(dir, 'db.json'), 'utf8'), '{"new":true}')
  t.strictSame(await readdir(dir), ['db.json'], 'no temporary file left')

  state.failing = true
  await t.rejects(
    writeFileDurably(path.join(dir, 'db.json'), '{"newer":true}'),
    { code: 'ENOSPC' },
    'a write whose rename fails',
  )
  t.equal(await readFile(path.join(dir, 'db.json'), 'utf8'), '{"new":true}', 'leaves the last file whole')
  t.strictSame(await readdir(dir), ['db.json'], 'and no temporary file')
})

await t.test('the data directory is locked: a second store refuses, a stale lock is taken over', async (t) => {
  const dataDir = await tempDataDir(t)
  const store = await EmbeddedStore.open({ dataDir, seed })
  await t.rejects(
    EmbeddedStore.open({ dataDir, seed }),
    /in use by another Chirp process/,
    'a second store on the same directory',
  )
  t.throws(() => lockDataDir(dataDir), /in use by another Chirp process/)
  await store.close()
  const again = await EmbeddedStore.open({ dataDir, seed })
  t.pass('after close the directory can be opened again')
  await again.close()
  await writeFile(path.join(dataDir, 'db.lock'), JSON.stringify({ pid: 2 ** 22 + 17, startTime: '1' }))
  const afterCrash = await EmbeddedStore.open({ dataDir, seed })
  t.pass('a lock left by a dead process is taken over')
  await afterCrash.close()
  await writeFile(path.join(dataDir, 'db.lock'), '{"pid":')
  const afterTornLock = await EmbeddedStore.open({ dataDir, seed })
  t.pass('a half-written lock is taken over')
  await afterTornLock.close()
})

await t.test('a failed flush fails its writes, and memory goes back to what the disk holds', async (t) => {
  const { fs, state } = recordingFs(t)
  const { EmbeddedStore: Store } = await t.mockImport<typeof import('../../server/store/embedded-store.js')>(
    '../../server/store/embedded-store.js',
    {
      'node:fs/promises': fs,
    },
  )
  const dataDir = await tempDataDir(t)
  const store = await Store.open({ dataDir, seed })
  await setBio(store, 'u0', 'saved')
  const disk = await snapshotDb({ dataDir })

  state.failing = true
  const results = await Promise.allSettled([setBio(store, 'u0', 'lost'), setBio(store, 'u1', 'lost too')])
  t.strictSame(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
    'both writes of the failed flush are refused',
  )
  t.equal(await bio(store, 'u0'), 'saved', 'memory is back to the last durable state')
  t.equal(await bio(store, 'u1'), '', 'including the other write of the batch')
  t.strictSame(await snapshotDb({ dataDir }), disk, 'the database files are as they were')

  state.failing = false
  await setBio(store, 'u1', 'after the fault')
  t.equal(await bio(store, 'u1'), 'after the fault', 'writes work again once the disk does')
  await store.close()
  const reopened = await EmbeddedStore.open({ dataDir, seed })
  t.equal(await bio(reopened, 'u0'), 'saved')
  t.equal(await bio(reopened, 'u1'), 'after the fault', 'and what was acknowledged is what the disk holds')
  await reopened.close()
})

await t.test(
  'a flush that fails after db.json was replaced (at the directory fsync) deletes nothing db.json names',
  async (t) => {
    const { fs, state } = recordingFs(t)
    const { EmbeddedStore: Store } = await t.mockImport<typeof import('../../server/store/embedded-store.js')>(
      '../../server/store/embedded-store.js',
      {
        'node:fs/promises': fs,
      },
    )
    const dataDir = await tempDataDir(t)
    const broken: unknown[] = []
    const store = await Store.open({ dataDir, seed, onBroken: (error) => broken.push(error) })
    await setBio(store, 'u0', 'acknowledged')

    // db.json's rename lands, then syncing the directory that holds it fails: the commit point may have moved.
    state.failSyncOf = path.resolve(dataDir)
    await t.rejects(setBio(store, 'u1', 'renamed into place, never acknowledged'))
    state.failSyncOf = undefined
    t.strictSame(broken, [], 'memory could be read back from the disk: every segment db.json names is there')
    t.equal(
      (await readDatabaseFiles(dataDir)).users.find((user) => user._id === 'u1')?.bio,
      await bio(store, 'u1'),
      'memory and disk agree',
    )
    await store.close()

    const reopened = await EmbeddedStore.open({ dataDir, seed })
    t.equal(await bio(reopened, 'u0'), 'acknowledged', 'the data directory opens, with every acknowledged write')
    await setBio(reopened, 'u1', 'after the fault')
    t.equal(await bio(reopened, 'u1'), 'after the fault', 'and takes writes again')
    await reopened.close()
  },
)

await t.test('over HTTP: a write whose flush fails is a 500, and nothing of it remains', async (t) => {
  const { fs, state } = recordingFs(t)
  const { default: mockedApp } = await t.mockImport<typeof import('../../server/app.js')>('../../server/app.js', {
    'node:fs/promises': fs,
  })
  const api = await buildSeededApp(t, { config: { rateLimit: false } })
  const token = await api.login('guest')
  await api.app.close()
  const app = await startApp(testConfig(api.dataDir), {}, mockedApp)
  t.teardown(() => app.close())
  const post = (content: string) =>
    app.inject({ method: 'POST', url: '/api/posts', headers: { authorization: token }, payload: { content } })
  const before = await snapshotDb(api)
  state.failing = true
  const failed = await post('never stored')
  t.equal(failed.statusCode, 500)
  t.strictSame(failed.json(), { errors: ['Internal server error'], code: 'internal' }, 'no internals in the answer')
  const list = (await app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: Array<{ content: string }> }
  t.notOk(
    list.posts.some((p) => p.content === 'never stored'),
    'memory does not show the failed write',
  )
  t.strictSame(await snapshotDb(api), before, 'nor does the disk')
  state.failing = false
  t.equal((await post('stored')).statusCode, 201, 'the next write succeeds')
})

const damaged: Array<[string, string]> = [
  ['empty', ''],
  ['whitespace', '  \n'],
  ['truncated JSON', '{"version":1,"users":[{"_id":'],
  ['not JSON', 'hello'],
  ['JSON that is not a Chirp database', '[1,2,3]'],
  ['a database of an unknown version', '{"version":99,"users":[],"posts":[]}'],
]

for (const [what, contents] of damaged) {
  await t.test(`a db.json that is ${what} stops the start and is never replaced`, async (t) => {
    const dataDir = await tempDataDir(t)
    await writeFile(path.join(dataDir, 'db.json'), contents)
    const error = await EmbeddedStore.open({ dataDir, seed }).then(
      () => undefined,
      (e: unknown) => e,
    )
    t.ok(error instanceof StartupError, 'a startup error, shown without a stack')
    t.match(
      (error as Error).message,
      /db\.json could not be read .*left the file untouched/s,
      'the message says what and what to do',
    )
    t.equal(await readFile(path.join(dataDir, 'db.json'), 'utf8'), contents, 'the file is byte for byte what it was')
    t.notOk((await readdir(dataDir)).includes('db.lock'), 'and the lock is released')
  })
}
