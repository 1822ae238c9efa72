/**
 * A seeded generator whose whole state is one 32-bit integer (Mulberry32), so a checkpoint can
 * store it and a resumed run continue the very same stream. Integer arithmetic only: the same
 * seed gives the same numbers in every JavaScript engine.
 */
export class TrainingRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = (Math.trunc(seed) ^ 0x2545f491) >>> 0;
  }

  /** The generator continuing from a saved `state`. */
  static fromState(state: number): TrainingRandom {
    const random = new TrainingRandom(0);
    random.#state = state >>> 0;
    return random;
  }

  get state(): number {
    return this.#state;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let value = this.#state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal (Box-Muller). */
  gaussian(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A Fisher-Yates permutation of `0..count-1`. */
  permutation(count: number): Int32Array {
    const order = Int32Array.from({ length: count }, (_, index) => index);
    for (let index = count - 1; index > 0; index--) {
      const other = Math.floor(this.next() * (index + 1));
      [order[index], order[other]] = [order[other]!, order[index]!];
    }
    return order;
  }
}

/** A seed for one purpose derived from the run's seed (so shuffling and initialisation do not share a stream). */
export function deriveSeed(seed: number, purpose: number): number {
  let value = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(purpose + 1, 0x85ebca6b)) >>> 0;
  value = Math.imul(value ^ (value >>> 16), 0x7feb352d) >>> 0;
  return (value ^ (value >>> 15)) >>> 0;
}
