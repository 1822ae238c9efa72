import type { DecoderModel } from '@reward-lens/spec';
import { createReferenceBackend } from '@reward-lens/core/testing';

/** The float64 oracle's values for every head and hidden layer at every position of one unpadded row. */
export async function oracleReads(model: DecoderModel, ids: number[]) {
  const backend = createReferenceBackend(model);
  const positions = [Array.from(ids, (_, index) => index)];
  const { config } = model;
  const { reads } = await backend.doForward({
    batchSize: 1,
    sequenceLength: ids.length,
    inputIds: Int32Array.from(ids),
    attentionMask: new Uint8Array(ids.length).fill(1),
    reads: [
      ...config.heads.map((head) => ({ kind: 'head' as const, head: head.name, positions })),
      ...Array.from({ length: config.numLayers + 1 }, (_, layer) => ({ kind: 'hidden' as const, layer, positions })),
    ],
  });
  return { heads: reads.slice(0, config.heads.length).map((read) => read.values[0]!), hidden: reads.slice(config.heads.length).map((read) => read.values[0]!) };
}
