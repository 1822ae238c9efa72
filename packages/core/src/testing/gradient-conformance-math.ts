import { type BackendV1, type DecoderModel, type ForwardRequestV1, type ReadResultV1, createSeededRandom } from '@reward-lens/spec';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';

// The arithmetic the gradient conformance tests share: requests, random directions and losses, and their comparisons.

export const embeddingName = 'model.embed_tokens.weight';

export function tokens(text: string): Int32Array {
  const tokenizer = createByteBpeTokenizer();
  return Int32Array.from([tokenizer.bosTokenId!, ...tokenizer.encode(text).ids]);
}

/** Rows padded on `side`, a value-head read at every real token of each row. */
export function valueBatch(rows: Int32Array[], side: 'left' | 'right'): ForwardRequestV1 {
  const sequenceLength = Math.max(...rows.map((row) => row.length));
  const inputIds = new Int32Array(rows.length * sequenceLength);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const positions = rows.map((row, index) => {
    const shift = side === 'left' ? sequenceLength - row.length : 0;
    inputIds.set(row, index * sequenceLength + shift);
    attentionMask.fill(1, index * sequenceLength + shift, index * sequenceLength + shift + row.length);
    return Array.from(row, (_, position) => position + shift);
  });
  return { batchSize: rows.length, sequenceLength, inputIds, attentionMask, reads: [{ kind: 'head', head: 'value', positions }] };
}

/** Fixed coefficients `a` for a loss `Σ a·r` over a value read, per row in the row's own token order. */
export function coefficients(rows: Int32Array[], seed: number): Float32Array[] {
  const random = createSeededRandom(seed);
  return rows.map((row) => Float32Array.from(row, () => random() * 2 - 1));
}

export const linearLoss = (reads: readonly ReadResultV1[], weights: readonly Float32Array[]) =>
  reads[0]!.values.reduce((total, values, row) => total + values.reduce((sum, value, index) => sum + value * weights[row]![index]!, 0), 0);

/** A direction over every tensor, each tensor's part of norm 1/sqrt(tensors), so the whole has norm 1. */
export function unitDirection(model: DecoderModel, seed: number): Map<string, Float32Array> {
  const random = createSeededRandom(seed);
  const share = 1 / Math.sqrt(model.tensors.size);
  return new Map(
    [...model.tensors].map(([name, tensor]) => {
      const values = Float32Array.from(tensor, () => random() * 2 - 1);
      const norm = Math.hypot(...values);
      return [name, values.map((value) => (value / norm) * share)];
    }),
  );
}

export function shifted(model: DecoderModel, direction: ReadonlyMap<string, Float32Array>, step: number): DecoderModel {
  return {
    config: model.config,
    tensors: new Map([...model.tensors].map(([name, tensor]) => [name, tensor.map((value, index) => value + step * (direction.get(name)?.[index] ?? 0))])),
  };
}

export function dot(a: ReadonlyMap<string, Float32Array>, b: ReadonlyMap<string, Float32Array>): number {
  let sum = 0;
  for (const [name, values] of a) {
    const other = b.get(name);
    if (other) for (let index = 0; index < values.length; index++) sum += values[index]! * other[index]!;
  }
  return sum;
}

/** max |actual - expected| / max |expected|, over every tensor. */
export function relativeMapError(actual: ReadonlyMap<string, Float32Array>, expected: ReadonlyMap<string, Float64Array | Float32Array>): number {
  let difference = 0;
  let magnitude = 0;
  for (const [name, values] of expected) {
    const mine = actual.get(name)!;
    for (let index = 0; index < values.length; index++) {
      difference = Math.max(difference, Math.abs(mine[index]! - values[index]!));
      magnitude = Math.max(magnitude, Math.abs(values[index]!));
    }
  }
  return difference / magnitude;
}

/** Finite differences in float32 arithmetic are coarse: these bound their error, not the backend's. */
export const differenceTolerance = (precision: BackendV1['precision']) => (precision === 'fp32' ? 2e-2 : 1e-1);
