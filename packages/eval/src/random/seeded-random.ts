/**
 * A seeded generator (Mulberry32 on a SplitMix-style state): integer arithmetic only, so a seed
 * gives the same stream in every JavaScript engine. `gaussian` uses Box–Muller.
 */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [low, high], both included. */
  integer(low: number, high: number): number;
  /** Normal with mean 0 and standard deviation 1. */
  gaussian(): number;
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  let spare: number | undefined;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    integer: (low, high) => low + Math.floor(next() * (high - low + 1)),
    gaussian() {
      if (spare !== undefined) {
        const value = spare;
        spare = undefined;
        return value;
      }
      const u = 1 - next();
      const v = next();
      const radius = Math.sqrt(-2 * Math.log(u));
      spare = radius * Math.sin(2 * Math.PI * v);
      return radius * Math.cos(2 * Math.PI * v);
    },
  };
}
