/**
 * A small deterministic generator (SplitMix32 → Mulberry32 stream). It uses only integer
 * arithmetic, so the same seed gives bit-identical weights in every JavaScript engine.
 */
export function createSeededRandom(seed: number): () => number {
  let state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
