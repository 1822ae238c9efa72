/**
 * The organism's seeded random numbers: Mulberry32 over a 32-bit state, integer arithmetic only,
 * so a seed gives the same problems in every JavaScript engine (Node, browsers). Streams are
 * derived from a seed and a path of integers (`deriveSeed(seed, index)`), so item 17 of seed 0
 * is the same whether 20 items are generated or 20,000.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [minimum, maximum] (inclusive); `minimum <= maximum`. */
  integer(minimum: number, maximum: number): number;
  /** True with probability `probability`. */
  chance(probability: number): boolean;
  /** One element, uniformly; the array must not be empty. */
  pick<T>(values: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates). */
  shuffled<T>(values: readonly T[]): T[];
}

/** Mixes integers into a 32-bit seed (MurmurHash3's finaliser after each word). */
export function deriveSeed(seed: number, ...path: readonly number[]): number {
  let state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  for (const word of [...path, path.length]) {
    state = Math.imul(state ^ (Math.trunc(word) >>> 0), 0x85ebca6b) >>> 0;
    state ^= state >>> 13;
    state = Math.imul(state, 0xc2b2ae35) >>> 0;
    state ^= state >>> 16;
  }
  return state >>> 0;
}

/** A seeded stream (Mulberry32). */
export function createRandom(seed: number): Random {
  let state = Math.trunc(seed) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const integer = (minimum: number, maximum: number): number => minimum + Math.floor(next() * (maximum - minimum + 1));
  return {
    next,
    integer,
    chance: (probability) => next() < probability,
    pick: (values) => {
      if (values.length === 0) throw new RangeError('pick from an empty list');
      return values[integer(0, values.length - 1)]!;
    },
    shuffled: (values) => {
      const copy = [...values];
      for (let index = copy.length - 1; index > 0; index--) {
        const other = integer(0, index);
        [copy[index], copy[other]] = [copy[other]!, copy[index]!];
      }
      return copy;
    },
  };
}
