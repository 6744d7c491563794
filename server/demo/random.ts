/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on every
 * machine, which is what makes the demo data reproducible. Not for anything secret.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A new generator whose sequence depends only on this seed and the labels (not on how far this one ran). */
  static derive(seed: number, ...labels: (string | number)[]): Random {
    return new Random(hashSeed(seed, ...labels));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  float(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** A whole number from min to max, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick: empty list');
    return itemAt(items, Math.floor(this.next() * items.length));
  }

  /** Picks by weight; `weights` and `items` have the same length. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const weight of weights) total += weight;
    let target = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      target -= weights[i] ?? 0;
      if (target < 0) return itemAt(items, i);
    }
    return itemAt(items, items.length - 1);
  }

  /** A copy in random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const swap = itemAt(copy, i);
      copy[i] = itemAt(copy, j);
      copy[j] = swap;
    }
    return copy;
  }

  /** Roughly normal (mean 0, deviation 1): the sum of four uniforms, centred and scaled. */
  gaussian(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * 1.7320508;
  }
}

/** Cumulative weights for fast repeated weighted picks of indexes. */
export class WeightedIndex {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((weight, i) => {
      sum += weight;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pick(random: Random): number {
    const target = random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (itemAt(this.cumulative, mid) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** A 32-bit hash of a seed and labels (FNV-1a over their text, then mixed). */
export function hashSeed(seed: number, ...labels: (string | number)[]): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  const text = labels.join('\u0001');
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** The item at an index the caller keeps in range: a RangeError, not undefined, when it is not. */
export function itemAt<T>(items: ArrayLike<T>, index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`No item at index ${index} of ${items.length}`);
  return item;
}
