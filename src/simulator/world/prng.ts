/**
 * Seeded randomness. The world draws from one stream (so the same seed and the same calls give
 * the same world); per-record choices (malformed? drifted? book levels?) are pure hashes of the
 * seed and the record id, so they do not depend on request order.
 */

/** mulberry32: tiny, fast, good enough for a simulator. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the parts, then a murmur3 finalizer so nearby inputs spread out. */
export function hash32(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f; // separator, so ("ab","c") differs from ("a","bc")
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A stable number in [0, 1) for the parts. */
export function unitHash(...parts: ReadonlyArray<string | number>): number {
  return hash32(...parts) / 4294967296;
}

/** Convenience draws on top of a [0, 1) source. */
export class Rng {
  constructor(readonly next: () => number) {}

  static seeded(seed: number): Rng {
    return new Rng(mulberry32(seed));
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** An exponential draw of mean 1: the wait for the next event of a Poisson process of rate 1. */
  exponential(): number {
    return -Math.log(1 - this.next());
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** k distinct items in random order (k is clamped to the list length). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  }
}
