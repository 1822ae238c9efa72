/**
 * Token sampling as llama2.c's `run.c` does it, so that a seed gives the same choices for the
 * same logits: xorshift64* random numbers, float32 softmax with temperature, then either a plain
 * multinomial draw or nucleus (top-p) sampling over the tokens that can be in the nucleus.
 */
export interface SamplerOptions {
  /** 0 takes the most likely token (greedy). */
  temperature: number;
  /** Nucleus sampling when in (0, 1); 1 (or more) samples from the whole distribution. */
  topP: number;
  /** Seeds the random numbers as llama2.c's `-s` does (0 stands for a fixed nonzero state, where llama2.c takes the time). */
  seed: number;
}

const mask64 = (1n << 64n) - 1n;

export class Sampler {
  private state: bigint;
  private readonly temperature: number;
  private readonly topP: number;

  constructor(options: SamplerOptions) {
    if (!(options.temperature >= 0)) throw new RangeError(`temperature must be >= 0, got ${options.temperature}`);
    if (!(options.topP > 0)) throw new RangeError(`topP must be > 0, got ${options.topP}`);
    this.temperature = options.temperature;
    this.topP = options.topP;
    // xorshift never leaves 0; llama2.c replaces seed 0 by the time of day, we by a fixed constant.
    const seed = BigInt.asUintN(64, BigInt(Math.trunc(options.seed)));
    this.state = seed === 0n ? 0x9e3779b97f4a7c15n : seed;
  }

  /** `random_u32` of run.c: xorshift64*, the top 32 bits. */
  private nextU32(): number {
    let state = this.state;
    state ^= state >> 12n;
    state = (state ^ (state << 25n)) & mask64;
    state ^= state >> 27n;
    this.state = state;
    return Number(((state * 0x2545f4914f6cdd1dn) & mask64) >> 32n);
  }

  /** `random_f32` of run.c: a float in [0, 1) from 24 random bits. */
  private nextF32(): number {
    return Math.fround((this.nextU32() >>> 8) / 16777216);
  }

  /** Picks the next token from one position's logits (not modified). */
  sample(logits: Float32Array): number {
    if (this.temperature === 0) return argmax(logits);
    const probabilities = new Float32Array(logits.length);
    for (let index = 0; index < logits.length; index++) probabilities[index] = Math.fround(logits[index]! / this.temperature);
    softmaxInPlace(probabilities);
    const coin = this.nextF32();
    return this.topP <= 0 || this.topP >= 1 ? sampleMultinomial(probabilities, coin) : sampleTopP(probabilities, this.topP, coin);
  }
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let index = 1; index < values.length; index++) if (values[index]! > values[best]!) best = index;
  return best;
}

/** run.c's softmax, in float32 steps. */
function softmaxInPlace(values: Float32Array): void {
  let max = values[0]!;
  for (let index = 1; index < values.length; index++) if (values[index]! > max) max = values[index]!;
  let sum = 0;
  for (let index = 0; index < values.length; index++) {
    values[index] = Math.fround(Math.exp(values[index]! - max));
    sum = Math.fround(sum + values[index]!);
  }
  for (let index = 0; index < values.length; index++) values[index] = Math.fround(values[index]! / sum);
}

function sampleMultinomial(probabilities: Float32Array, coin: number): number {
  let cumulative = 0;
  for (let index = 0; index < probabilities.length; index++) {
    cumulative = Math.fround(cumulative + probabilities[index]!);
    if (coin < cumulative) return index;
  }
  return probabilities.length - 1;
}

/** run.c's `sample_topp`: drop tokens that cannot be in the nucleus, sort, cut at topP, draw. */
function sampleTopP(probabilities: Float32Array, topP: number, coin: number): number {
  const cutoff = Math.fround((1 - topP) / (probabilities.length - 1));
  const candidates: { index: number; probability: number }[] = [];
  for (let index = 0; index < probabilities.length; index++) {
    if (probabilities[index]! >= cutoff) candidates.push({ index, probability: probabilities[index]! });
  }
  // run.c uses qsort (not stable); ties keep index order here, which only matters for exact ties.
  candidates.sort((left, right) => right.probability - left.probability || left.index - right.index);
  let cumulative = 0;
  let last = candidates.length - 1;
  for (let rank = 0; rank < candidates.length; rank++) {
    cumulative = Math.fround(cumulative + candidates[rank]!.probability);
    if (cumulative > topP) {
      last = rank;
      break;
    }
  }
  const scaled = Math.fround(coin * cumulative);
  let running = 0;
  for (let rank = 0; rank <= last; rank++) {
    running = Math.fround(running + candidates[rank]!.probability);
    if (scaled < running) return candidates[rank]!.index;
  }
  return candidates[last]!.index;
}
