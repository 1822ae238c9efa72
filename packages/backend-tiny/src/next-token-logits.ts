import { BackendContractError, type BackendV1, type CacheHandleV1 } from '@reward-lens/spec';

export interface NextTokenStep {
  /** The `lm` head's logits at the last new token (the vocabulary, or `columns` only). */
  logits: Float32Array;
  /** Covers `past` and the new tokens; pass it as `past` for the next step. */
  cache: CacheHandleV1;
}

/**
 * One decoding step: feeds `tokens` after `past` and reads the next-token logits at the last
 * one. The given `past` stays usable (extend it again to branch); release handles you are done with.
 *
 * @example
 * let step = await nextTokenLogits(backend, { tokens: promptIds });
 * step = await nextTokenLogits(backend, { tokens: [argmax(step.logits)], past: step.cache });
 */
export async function nextTokenLogits(
  backend: BackendV1,
  options: { tokens: readonly number[]; past?: CacheHandleV1; head?: string; columns?: readonly number[] },
): Promise<NextTokenStep> {
  const head = options.head ?? backend.info.heads.find((candidate) => candidate.kind === 'lm')?.name;
  if (head === undefined) throw new BackendContractError(backend.name, 'the model has no lm head to read next-token logits from');
  const count = options.tokens.length;
  if (count === 0) throw new BackendContractError(backend.name, 'nextTokenLogits needs at least one new token');
  const result = await backend.doForward({
    batchSize: 1,
    sequenceLength: count,
    inputIds: Int32Array.from(options.tokens),
    attentionMask: new Uint8Array(count).fill(1),
    reads: [{ kind: 'head', head, positions: [[count - 1]], ...(options.columns ? { columns: options.columns } : {}) }],
    past: [options.past ?? null],
    returnCache: true,
  });
  return { logits: result.reads[0]!.values[0]!, cache: result.caches![0]! };
}
