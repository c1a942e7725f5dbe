import { link, mkdir, unlink } from 'node:fs/promises'
import path from 'node:path'
import { Low } from 'lowdb'
import { DurableJsonFile, syncDirectory, UnsyncedReplaceError, writeSyncedFile } from './durable-file.js'
import {
  KINDS,
  SEGMENT_DIR,
  assemble,
  isRoot,
  manifestOf,
  readSegments,
  removeStraySegments,
  segmentName,
  shardCountFor,
  shardKey,
  shardOf,
  type Kind,
  type Manifest,
  type Root,
  type Segment,
} from './layout.js'
import { SegmentUses } from './segment-uses.js'
import { shareStrings } from './shared-strings.js'
import type { Database } from './types.js'

/** One flush, serialised at the moment it began: writing it needs nothing more from memory. */
export interface Flush {
  /** Usually one; several when a whole database is written. */
  segments: { name: string; contents: string }[]
  manifest: Manifest
  /** Segments no shard points at once the manifest is written; removed after it. */
  dead: string[]
}

type Lookup = (kind: Kind, id: string) => object | undefined

/** About 4,000 records, a few megabytes: a whole database is written as several segments of at most this. */
const MAX_SHARDS_PER_SEGMENT = 1024

/**
 * DATA_DIR/db.json and the segments it names (see layout.ts). Keeps which ids live in which shard and
 * which shards changed since the last flush, so a flush serialises only those.
 */
export class ShardedFiles {
  readonly #dataDir: string
  readonly #root: Low<Root>
  /** What db.json holds: a manifest, a version-1 database (until the first flush), or nothing yet. */
  #onDisk: 'manifest' | 'v1' | 'none' = 'none'
  #manifest: Manifest | undefined
  #segments = new SegmentUses()
  #generation = 0
  #members = Object.fromEntries(KINDS.map((kind) => [kind, []])) as unknown as Record<Kind, Set<string>[]>
  #dirty = Object.fromEntries(KINDS.map((kind) => [kind, new Set()])) as unknown as Record<Kind, Set<number>>

  constructor(dataDir: string) {
    this.#dataDir = dataDir
    // lowdb keeps the root file; segments are plain durable JSON files beside it.
    this.#root = new Low<Root>(new DurableJsonFile(path.join(dataDir, 'db.json'), isRoot), {
      version: 1,
      users: [],
      posts: [],
    })
  }

  /** The database on disk, or null when there is none yet. Throws CorruptDatabaseError on a damaged file. */
  async read(): Promise<Database | null> {
    const root = await this.#root.adapter.read()
    this.#manifest = undefined
    this.#segments = new SegmentUses()
    const manifest = root === null ? undefined : manifestOf(root)
    this.#onDisk = root === null ? 'none' : manifest ? 'manifest' : 'v1'
    if (root === null) return null
    if (!manifest) {
      shareStrings(root as Database)
      return root as Database
    }
    const segments = await readSegments(this.#dataDir, manifest)
    // A manifest from before the queue has no jobs, which is not the same as an empty queue (Database.jobs).
    const database = assemble(this.#dataDir, manifest, segments, root.version >= 7)
    shareStrings(database)
    this.#manifest = manifest
    this.#generation = Math.max(this.#generation, manifest.generation)
    this.#segments = SegmentUses.of(manifest, segments)
    return database
  }

  /**
   * Tracks every record of `database`. For each kind without a layout of fitting size in the manifest
   * (none yet, or a manifest from before that kind existed), or for all with `rewrite`, every shard is due for writing.
   */
  load(database: Database, rewrite = false): void {
    for (const kind of KINDS) {
      const records = database[kind] ?? []
      const planned = shardCountFor(records.length)
      const current = this.#manifest?.[kind].length ?? 0
      // Past four times the planned size a layout is redrawn, on the next flush; below that it is kept.
      const keep = !rewrite && current * 4 > planned
      const count = keep ? current : planned
      this.#members[kind] = Array.from({ length: count }, () => new Set<string>())
      this.#dirty[kind] = new Set(keep ? [] : this.#members[kind].keys())
      for (const record of records) this.#members[kind][shardOf(record._id, count)]?.add(record._id)
    }
  }

  touch(kind: Kind, id: string): void {
    const shards = this.#members[kind]
    const shard = shardOf(id, shards.length)
    shards[shard]?.add(id)
    this.#dirty[kind].add(shard)
  }

  remove(kind: Kind, id: string): void {
    const shards = this.#members[kind]
    const shard = shardOf(id, shards.length)
    shards[shard]?.delete(id)
    this.#dirty[kind].add(shard)
  }

  /**
   * Serialises every changed shard, now, and forgets that they changed. They go into one segment, or into
   * several when a whole database is being written (a seed, a conversion, a redrawn layout), so that no
   * single file grows without bound.
   */
  prepare(lookup: Lookup): Flush {
    this.#carryForward()
    const manifest: Manifest = {
      version: 10,
      generation: 0,
      users: [],
      posts: [],
      notifications: [],
      revokedTokens: [],
      reports: [],
      auditLog: [],
      invites: [],
      reservedNames: [],
      jobs: [],
      apps: [],
      authorizationCodes: [],
      markers: [],
      pushSubscriptions: [],
      customEmojis: [],
    }
    const changed: { kind: Kind; shard: number }[] = []
    const dead: number[] = []
    const release = (old: number) => {
      if (this.#segments.release(old)) dead.push(old)
    }
    for (const kind of KINDS) {
      const members = this.#members[kind]
      const old = this.#manifest?.[kind]
      const sameLayout = old?.length === members.length
      // A new layout (no manifest yet, or shards redrawn) has every shard marked changed by load().
      if (old && !sameLayout) old.forEach(release)
      manifest[kind] = sameLayout ? old.slice() : new Array<number>(members.length).fill(0)
      for (const shard of this.#dirty[kind]) {
        changed.push({ kind, shard })
        if (sameLayout) release(manifest[kind][shard] as number)
      }
      this.#dirty[kind].clear()
    }
    const segments: Flush['segments'] = []
    for (let start = 0; start < changed.length; start += MAX_SHARDS_PER_SEGMENT) {
      const generation = ++this.#generation
      const part = changed.slice(start, start + MAX_SHARDS_PER_SEGMENT)
      const segment: Segment = { version: 2, generation, shards: {} }
      for (const { kind, shard } of part) {
        const records: object[] = []
        for (const id of this.#members[kind][shard] ?? []) {
          const record = lookup(kind, id)
          if (record) records.push(record)
        }
        segment.shards[shardKey(kind, shard)] = records
        manifest[kind][shard] = generation
      }
      this.#segments.add(generation, part.length)
      segments.push({ name: segmentName(generation), contents: JSON.stringify(segment) })
    }
    manifest.generation = segments.length > 0 ? this.#generation : ++this.#generation
    return { segments, manifest, dead: dead.map(segmentName) }
  }

  /** Writes a prepared flush: its segments, synced, then db.json. Resolves once all of it is durable. */
  async commit(flush: Flush): Promise<void> {
    const dir = path.join(this.#dataDir, SEGMENT_DIR)
    const written: string[] = []
    try {
      await mkdir(dir, { recursive: true })
      await Promise.all(
        flush.segments.map(async ({ name, contents }) => {
          await writeSyncedFile(path.join(dir, name), contents)
          written.push(name)
        }),
      )
      await syncDirectory(dir)
      if (this.#onDisk === 'v1') await this.#keepOriginal()
      this.#root.data = flush.manifest
      await this.#root.write()
    } catch (error) {
      // Before db.json is replaced nothing names these segments, and removing them now saves the next start
      // from doing it. Once it has been, it names them: they stay, and whatever is stray goes at the next start.
      if (!(error instanceof UnsyncedReplaceError)) {
        await Promise.all(written.map((name) => unlink(path.join(dir, name)).catch(() => {})))
      }
      throw error
    }
    this.#manifest = flush.manifest
    this.#onDisk = 'manifest'
    await Promise.all(flush.dead.map((name) => unlink(path.join(dir, name)).catch(() => {})))
  }

  /** Segments left by a crash or a failed flush: never named by db.json, so never read. */
  async removeStrays(): Promise<void> {
    await removeStraySegments(this.#dataDir, this.#manifest)
  }

  /** Marks the live shards of the most deserted segment as changed, so this flush copies them forward. */
  #carryForward(): void {
    const manifest = this.#manifest
    const victim = this.#segments.victim()
    if (!manifest || victim === undefined) return
    for (const kind of KINDS) {
      if (manifest[kind].length !== this.#members[kind].length) continue
      manifest[kind].forEach((generation, shard) => {
        if (generation === victim) this.#dirty[kind].add(shard)
      })
    }
  }

  /**
   * The first flush over a version-1 db.json turns it into a manifest; the original stays beside it as
   * db.v1.json (a hard link: no copy, and it can never be half written).
   */
  async #keepOriginal(): Promise<void> {
    await link(path.join(this.#dataDir, 'db.json'), path.join(this.#dataDir, 'db.v1.json')).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error
      },
    )
  }
}
