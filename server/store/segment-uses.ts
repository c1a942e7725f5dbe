import { KINDS, type Manifest, type Segment } from './layout.js'

/**
 * A segment whose shards have mostly moved on to newer segments is copied forward, its live shards written
 * again by the next flush, so that old segments do not pile up. At most this many shards per flush: enough
 * for the empty shards of every kind a new database starts with (16 each, 12 kinds), so its first segment
 * can go too.
 */
const MAX_CARRIED = 192

/** For every segment on disk: how many shards it was written with, and how many the manifest still points at it for. */
export class SegmentUses {
  readonly #uses = new Map<number, { held: number; live: number }>()

  static of(manifest: Manifest, segments: ReadonlyMap<number, Segment>): SegmentUses {
    const uses = new SegmentUses()
    for (const [generation, segment] of segments)
      uses.#uses.set(generation, { held: Object.keys(segment.shards).length, live: 0 })
    for (const kind of KINDS) {
      for (const generation of manifest[kind]) {
        const use = uses.#uses.get(generation)
        if (use) use.live++
      }
    }
    return uses
  }

  /** A new segment, every shard of which is live. */
  add(generation: number, held: number): void {
    this.#uses.set(generation, { held, live: held })
  }

  /** One shard moved off `generation`. True when that was its last: the segment can go once the manifest is written. */
  release(generation: number): boolean {
    const use = this.#uses.get(generation)
    if (!use || --use.live > 0) return false
    this.#uses.delete(generation)
    return true
  }

  /** The segment most worth copying forward: under half used, and the fewest live shards of all such. */
  victim(): number | undefined {
    let victim: number | undefined
    let fewest = MAX_CARRIED + 1
    for (const [generation, use] of this.#uses) {
      if (use.live > 0 && use.live * 2 < use.held && use.live < fewest) {
        victim = generation
        fewest = use.live
      }
    }
    return victim
  }
}
