/** A seeded generator, so the same flags always give the same data set and runs can be compared. */
export type Random = () => number

/** mulberry32: tiny, fast and good enough for test data (not for anything secret). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const randomInt = (random: Random, below: number) => Math.floor(random() * below)

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[randomInt(random, items.length)] as T
}

/** A version-4-shaped uuid drawn from the seeded generator, so ids are reproducible too. */
export function seededUuid(random: Random): string {
  const hex = (n: number) => Array.from({ length: n }, () => randomInt(random, 16).toString(16)).join('')
  const variant = (8 + randomInt(random, 4)).toString(16)
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`
}

/** An exponential draw rounded down: many small counts and a long tail, the shape of likes and follows. */
export function longTail(random: Random, mean: number): number {
  return Math.floor(-Math.log(1 - random()) * mean)
}

/** Draws indexes in proportion to fixed weights: a running sum and a binary search. */
export class WeightedSampler {
  readonly #cumulative: Float64Array

  constructor(weights: readonly number[]) {
    this.#cumulative = new Float64Array(weights.length)
    let sum = 0
    weights.forEach((weight, i) => {
      sum += weight
      this.#cumulative[i] = sum
    })
  }

  sample(random: Random): number {
    const total = this.#cumulative[this.#cumulative.length - 1] ?? 0
    const target = random() * total
    let lo = 0
    let hi = this.#cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.#cumulative[mid] as number) <= target) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** Zipf weights over a shuffled ranking: a few indexes get most of the mass, and they are scattered. */
export function zipfWeights(random: Random, count: number, exponent: number): number[] {
  const ranks = Array.from({ length: count }, (_, i) => i)
  for (let i = count - 1; i > 0; i--) {
    const j = randomInt(random, i + 1)
    ;[ranks[i], ranks[j]] = [ranks[j] as number, ranks[i] as number]
  }
  return ranks.map((rank) => 1 / (rank + 1) ** exponent)
}

/**
 * The weights with `index` in the `rank`-th heaviest place (0 the heaviest), trading places with the index
 * that held it: a chosen account gets a known share of what the weights hand out, and only that one other moves.
 */
export function placeAt(weights: number[], index: number, rank: number): number[] {
  const heavier = [...weights].sort((a, b) => b - a)
  const holder = weights.indexOf(heavier[Math.min(rank, heavier.length - 1)] as number)
  if (holder < 0 || index >= weights.length) return weights
  ;[weights[index], weights[holder]] = [weights[holder] as number, weights[index] as number]
  return weights
}

/**
 * `count` distinct indexes below `size`, drawn by weight and never `exclude`. Weighted draws stop paying
 * once the heavy indexes are taken, so after a bounded number of tries the rest is filled uniformly.
 */
export function distinctSample(
  random: Random,
  sampler: WeightedSampler,
  size: number,
  count: number,
  exclude: number,
): number[] {
  const want = Math.min(count, exclude >= 0 && exclude < size ? size - 1 : size)
  const chosen = new Set<number>()
  for (let tries = 0; chosen.size < want && tries < want * 6; tries++) {
    const index = sampler.sample(random)
    if (index !== exclude) chosen.add(index)
  }
  let next = randomInt(random, size)
  while (chosen.size < want) {
    if (next !== exclude) chosen.add(next)
    next = (next + 1) % size
  }
  return [...chosen]
}
