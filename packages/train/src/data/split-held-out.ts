import { deriveSeed, TrainingRandom } from '../random.js';
import type { StepRecord } from './step-record.js';

/** Splits records into training and held-out sets: a seeded random `fraction` held out (at least one record). */
export function splitHeldOut(records: readonly StepRecord[], fraction: number, seed: number): { training: StepRecord[]; heldOut: StepRecord[] } {
  const order = new TrainingRandom(deriveSeed(seed, 2)).permutation(records.length);
  const count = Math.min(records.length - 1, Math.max(1, Math.round(records.length * fraction)));
  const held = new Set(order.subarray(0, count));
  return { training: records.filter((_, index) => !held.has(index)), heldOut: records.filter((_, index) => held.has(index)) };
}
