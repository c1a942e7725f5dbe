import type { Config } from '../../config.js'
import { openPersistence, type Persistence } from '../../persistence.js'
import { openMediaStorage } from '../../media/index.js'
import { buildSeed } from '../../seed/index.js'
import type { Output } from '../database-env.js'

/**
 * Runs an admin command on the store the server's own environment names, opened as the server would
 * open it (seeding an empty one), and closed whatever the command does; warnings go to the command's
 * error output.
 */
export async function withStore(
  config: Config,
  out: Output,
  command: (persistence: Persistence) => Promise<number>,
): Promise<number> {
  const media = openMediaStorage(config)
  const persistence = await openPersistence(config, {
    seed: () => buildSeed(media),
    log: { info: () => {}, warn: (_obj, msg) => out.error(msg) },
    onBroken: () => {},
  })
  try {
    return await command(persistence)
  } finally {
    await persistence.close()
    media.close()
  }
}
