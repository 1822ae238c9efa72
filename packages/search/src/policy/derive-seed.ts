/**
 * A seed for sample `index` of a request seeded `seed`: a 31-bit hash (splitmix32's mixer), so
 * neighbouring seeds and indices give unrelated streams and the value fits every sampler (core's,
 * an OpenAI-compatible server's `seed`).
 */
export function deriveSeed(seed: number, index: number): number {
  let state = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  state = Math.imul(state ^ (state >>> 16), 0x21f0aaad);
  state = Math.imul(state ^ (state >>> 15), 0x735a2d97);
  state ^= state >>> 15;
  return state >>> 1 || 1;
}

/** A seed for a labelled part of a run (a record, a prefix), from text: FNV-1a over the parts. */
export function seedFromParts(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    const text = `${String(part)}\u0000`;
    for (let index = 0; index < text.length; index++) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return hash >>> 1 || 1;
}
