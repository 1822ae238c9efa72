import type { ReadRequestV1 } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';
import type { KernelChoice } from './kernels/kernel-choice.js';
import { batchRequest, range } from '../test/support/requests.js';
import { testModel, tokenIds } from '../test/support/test-models.js';

/** Reads every kind, at every real position of a row. */
function everyRead(numLayers: number) {
  return (positionsOf: (row: number, tokenIndexes: readonly number[]) => number[], lengths: readonly number[]): ReadRequestV1[] => {
    const positions = lengths.map((length, row) => positionsOf(row, range(length)));
    return [
      { kind: 'head', head: 'value', positions },
      { kind: 'head', head: 'lm', positions, columns: [1, 7, 3] },
      { kind: 'head', head: 'classifier', layer: 1, positions },
      { kind: 'hidden', layer: numLayers, positions },
      { kind: 'hidden', layer: 1, positions },
    ];
  };
}

describe.each<KernelChoice>(['wasm-simd', 'scalar'])('batching on %s kernels', (kernels) => {
  const model = testModel(11, { numKvHeads: 2 });
  const { vocabSize, numLayers } = model.config;
  const rows = [tokenIds(9, vocabSize, 1), tokenIds(4, vocabSize, 2), tokenIds(1, vocabSize, 3), tokenIds(7, vocabSize, 4)];
  const reads = everyRead(numLayers);

  async function alone(row: readonly number[]) {
    const backend = createTinyBackend(model, { kernels });
    const result = await backend.doForward(batchRequest([row], (positionsOf) => reads(positionsOf, [row.length])));
    return result.reads.map((read) => read.values[0]!);
  }

  it.each(['left', 'right'] as const)('a %s-padded batch gives each row bit-identical results to running it alone', async (padding) => {
    const backend = createTinyBackend(model, { kernels });
    const lengths = rows.map((row) => row.length);
    // Extra padding columns on every row: no row fills the batch.
    const request = batchRequest(rows, (positionsOf) => reads(positionsOf, lengths), { padding, sequenceLength: 12 });
    const batched = await backend.doForward(request);
    for (let row = 0; row < rows.length; row++) {
      const expected = await alone(rows[row]!);
      batched.reads.forEach((read, index) => expect(read.values[row]).toEqual(expected[index]));
    }
  });

  it('padding token ids are ignored', async () => {
    const backend = createTinyBackend(model, { kernels });
    const lengths = rows.map((row) => row.length);
    const request = batchRequest(rows, (positionsOf) => reads(positionsOf, lengths), { padding: 'left' });
    const first = await backend.doForward(request);
    request.inputIds.forEach((_, cell) => {
      if (request.attentionMask[cell] === 0) request.inputIds[cell] = vocabSize - 1;
    });
    const second = await backend.doForward(request);
    expect(second.reads).toEqual(first.reads);
  });

  it('a row may have no real tokens when nothing is read from it', async () => {
    const backend = createTinyBackend(model, { kernels });
    const request = batchRequest([rows[0]!, []], (positionsOf) => [{ kind: 'head', head: 'value', positions: [positionsOf(0, [0, 8]), []] }]);
    const { reads } = await backend.doForward(request);
    expect(reads[0]!.values[1]).toEqual(new Float32Array(0));
    expect(reads[0]!.values[0]).toEqual((await alone(rows[0]!))[0]!.filter((_, index) => index === 0 || index === 8));
  });
});
