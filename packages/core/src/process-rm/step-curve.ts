import type { TokenizedBatch } from './tokenized-batch.js';
import type { TokenizedPair } from './tokenize-pair.js';

/** A pair's score at every step, from the scores at its read positions: steps cut off by left truncation get NaN (the pair's notes say so). */
export function stepCurve(pair: TokenizedPair, scores: Float32Array): Float32Array {
  const curve = new Float32Array(pair.steps.length).fill(Number.NaN);
  let next = 0;
  pair.readPositions.forEach((position, step) => {
    if (position >= 0) curve[step] = scores[next++]!;
  });
  return curve;
}

/** A result's notes: the model's, the call's, then each pair's (prefixed with its index when there are several). */
export function batchNotes(base: readonly string[], batch: TokenizedBatch, extra: readonly string[] = []): string[] {
  const notes = [...base, ...extra];
  batch.pairs.forEach((pair, index) => {
    for (const note of pair.notes) notes.push(batch.pairs.length === 1 ? note : `pair ${index}: ${note}`);
  });
  return notes;
}
