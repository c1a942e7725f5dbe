import * as fsp from 'node:fs/promises'
import t from 'tap'
import type { UserRecord } from '../../server/store/types.js'
import { tempDataDir } from '../helpers/app.js'
import { smallDatabase } from '../helpers/records.js'

/**
 * When a flush fails and the disk cannot be read back either, memory holds a change that was never
 * acknowledged. The store must say so (the process then exits and restarts from disk) and refuse
 * every later write rather than build on it.
 */
await t.test(
  'a failed flush whose read-back also fails reports the store broken and refuses later writes',
  async (t) => {
    const state = { failing: false }
    const injected = () => Object.assign(new Error('injected: I/O error'), { code: 'EIO' })
    const fs = t.createMock(fsp, {
      rename: async (from: string, to: string) => {
        if (state.failing) throw injected()
        return fsp.rename(from, to)
      },
      readFile: (async (...args: Parameters<typeof fsp.readFile>) => {
        if (state.failing) throw injected()
        return fsp.readFile(...args)
      }) as typeof fsp.readFile,
    })
    const { EmbeddedStore } = await t.mockImport<typeof import('../../server/store/embedded-store.js')>(
      '../../server/store/embedded-store.js',
      { 'node:fs/promises': fs },
    )
    const broken: unknown[] = []
    const store = await EmbeddedStore.open({
      dataDir: await tempDataDir(t),
      seed: async () => smallDatabase(2, 0),
      onBroken: (error) => broken.push(error),
    })
    const setBio = (value: string) =>
      store.transaction(async (tx) => {
        const user = (await tx.getUser('u0')) as UserRecord
        await tx.updateProfile(user._id, { bio: value }, user.updatedAt)
      })

    await setBio('saved')
    t.equal(broken.length, 0, 'a healthy store is not reported')

    state.failing = true
    await t.rejects(setBio('never acknowledged'), { code: 'EIO' })
    t.equal(broken.length, 1, 'the store reports itself broken once')
    t.match(broken[0], { code: 'EIO' })

    state.failing = false
    await t.rejects(setBio('built on a bad state'), { code: 'EIO' }, 'no write is accepted after that')
    await store.close()
  },
)
