import { BENCH_PASSWORD } from '../seed-large/people.js'
import { login, writeHeaders, type Session } from './api.js'
import { compare, type Bench, type BenchBase } from './context.js'
import { copyDataSet } from './dataset.js'
import { load, pairedRatio, type LoadResult } from './load.js'
import { startChirp } from './processes.js'

/** Each connection likes and unlikes posts of its own, so no request is refused as a repeat. */
const POSTS_PER_CONNECTION = 8

/** Whose likes go where: a session on one server, and posts of that server's data the session has not liked. */
export interface LikeTarget {
  session: Session
  takePosts: (count: number) => string[]
}

export function likeUnlikeRun(bench: BenchBase, target: LikeTarget, connections = bench.settings.writeConnections) {
  const headers = writeHeaders(target.session)
  return (duration: number): Promise<LoadResult> => {
    const posts = target.takePosts(connections * POSTS_PER_CONNECTION)
    let client = 0
    return load({
      url: target.session.base,
      connections,
      duration,
      setupClient(connection) {
        const mine = posts.slice(client * POSTS_PER_CONNECTION, (client + 1) * POSTS_PER_CONNECTION)
        client++
        connection.setRequests(
          mine.flatMap((id) => [
            { method: 'POST', path: `/api/posts/like/${id}`, headers, body: '{}' },
            { method: 'POST', path: `/api/posts/dislike/${id}`, headers, body: '{}' },
          ]),
        )
      },
    })
  }
}

/**
 * Leg 3: like/unlike throughput when writes that arrive together share a flush, against a second server
 * on a copy of the same data that gives every write a flush of its own (STORE_FLUSH=per-write). In both,
 * a response leaves only after its write is on disk.
 */
export async function writesSharedVsPerWrite(bench: Bench) {
  const dataDir = await bench.scratch.dir('per-write')
  await copyDataSet(bench.dataSetDir, dataDir)
  const perWrite = await startChirp({
    dataDir,
    jwtSecret: bench.jwtSecret,
    openFiles: bench.openFiles,
    env: { STORE_FLUSH: 'per-write' },
  })
  try {
    const perWriteSession = await login(perWrite.url, 'bench_writer', BENCH_PASSWORD)
    const comparison = await compare(bench, '3. like/unlike, shared flush vs a flush per write', {
      shared: likeUnlikeRun(bench, { session: bench.sessions.writer, takePosts: bench.takePosts }),
      perWrite: likeUnlikeRun(bench, { session: perWriteSession, takePosts: bench.takePosts }),
    })
    return {
      ...comparison,
      ratio: pairedRatio(comparison.runs.shared, comparison.runs.perWrite),
      sharedP99: comparison.medians.shared.p99,
    }
  } finally {
    await perWrite.stop()
  }
}
