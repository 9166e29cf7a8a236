/**
 * A small seeded pseudo-random generator for the demo data: the same seed gives the same portfolio, reports
 * and history on every machine. mulberry32 (32-bit state, good enough statistically for fake traffic, not for
 * anything secret) with streams forked by label, so that adding a domain or a day to the demo does not shift
 * the numbers every other domain draws.
 */

/** A deterministic source of random numbers. */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** An approximately normal value (mean, standard deviation), from the sum of uniforms. */
  normal(mean: number, sd: number): number;
  /** Lower-case hex digits, `length` of them. */
  hex(length: number): string;
  /** An independent stream named `label`: its draws depend only on this stream's seed and the label. */
  fork(label: string): Prng;
}

/** 32-bit hash of a string (FNV-1a followed by a murmur3 finaliser, so near labels give far seeds). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A generator seeded by a number or a string. */
export function createPrng(seed: number | string): Prng {
  const origin = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  let state = origin;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const prng: Prng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    normal: (mean, sd) => {
      // Irwin–Hall with 6 terms: variance 1/2, so scale by sqrt(2).
      let sum = 0;
      for (let i = 0; i < 6; i++) sum += next();
      return mean + (sum - 3) * Math.SQRT2 * sd;
    },
    hex: (length) => {
      let out = '';
      while (out.length < length) out += Math.floor(next() * 16).toString(16);
      return out;
    },
    fork: (label) => createPrng(hashString(`${origin}:${label}`)),
  };
  return prng;
}
