import { describe, expect, it } from 'vitest';
import { type BackendV1, createRandomDecoder } from '@reward-lens/spec';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';

import { countingBackend } from '../testing/counting-backend.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { ProcessRM } from './process-rm.js';

const model = createRandomDecoder({ seed: 5 });
const tokenizer = createByteBpeTokenizer();
const inputs = [1, 2, 3].map((n) => ({ problem: `What is ${n} + ${n}?`, steps: [`${n} + ${n} = ${2 * n}`, `The answer is ${2 * n}.`] }));

/** A ProcessRM over the float64 oracle, one pair per pass, counting passes; `onPass` runs as each pass starts. */
function setup(onPass: (calls: number) => void = () => {}) {
  const reference = createReferenceBackend(model);
  const counted = countingBackend(reference);
  let disposed = 0;
  const backend: BackendV1 = {
    ...counted,
    ...(reference.doBackward ? { doBackward: reference.doBackward.bind(reference) } : {}),
    doForward: (request) => {
      const result = counted.doForward(request);
      onPass(counted.forwardCalls);
      return result;
    },
    dispose: async () => {
      disposed += 1;
    },
  };
  return { prm: ProcessRM.fromBackend(backend, tokenizer, { batchSize: 1 }), counted, disposed: () => disposed };
}

describe('ProcessRM scoring methods take an AbortSignal', () => {
  it.each(['score', 'stepScores', 'prefixScores'] as const)('%s: an aborted signal rejects with its reason before any pass runs', async (method) => {
    const { prm, counted } = setup();
    const reason = new Error('the user went away');
    await expect(prm[method](inputs, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(counted.forwardCalls).toBe(0);
  });

  it('stepScores: aborting during the first pass starts no other pass, and rejects with an AbortError', async () => {
    const controller = new AbortController();
    const { prm, counted } = setup((calls) => {
      if (calls === 1) controller.abort();
    });
    const error = await prm.stepScores(inputs, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(counted.forwardCalls).toBe(1);
  });

  it('a signal that never aborts changes nothing: the same scores as without one', async () => {
    const { prm } = setup();
    const plain = await prm.stepScores(inputs);
    const signalled = await prm.stepScores(inputs, { signal: new AbortController().signal });
    expect(signalled.value.curves).toEqual(plain.value.curves);
  });

  it('stepActivations checks it too', async () => {
    const { prm, counted } = setup();
    const signal = AbortSignal.abort();
    await expect(prm.stepActivations(inputs, { layer: 1, signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(counted.forwardCalls).toBe(0);
  });
});

describe('ProcessRM and Symbol.asyncDispose', () => {
  it('disposes its backend when an `await using` block ends', async () => {
    const { prm, disposed } = setup();
    expect(typeof prm[Symbol.asyncDispose]).toBe('function');
    await prm[Symbol.asyncDispose]();
    expect(disposed()).toBe(1);
  });
});
