import { describe, expect, it } from 'vitest';
import type { BackendV1, ForwardRequestV1 } from './backend-v1.js';
import { validateForwardRequest } from './validate-forward-request.js';

function backendWith(supportsCacheLengths: boolean | undefined): BackendV1 {
  return {
    specificationVersion: 'v1',
    name: 'fake',
    capabilities: 0,
    precision: 'fp32',
    supportsCache: true,
    ...(supportsCacheLengths === undefined ? {} : { supportsCacheLengths }),
    info: { vocabSize: 10, maxPositions: 16, hiddenSize: 2, numLayers: 1, heads: [] } as unknown as BackendV1['info'],
    doForward: () => Promise.reject(new Error('not run')),
    dispose: () => Promise.resolve(),
  };
}

const request = (cacheLengths: number[], returnCache = true): ForwardRequestV1 => ({
  batchSize: 2,
  sequenceLength: 3,
  inputIds: Int32Array.from([1, 2, 3, 4, 5, 0]),
  attentionMask: Uint8Array.from([1, 1, 1, 1, 1, 0]),
  reads: [],
  returnCache,
  cacheLengths,
});

describe('validateForwardRequest: cacheLengths', () => {
  it('takes lengths from 0 to each row’s real tokens on a backend that supports them', () => {
    expect(validateForwardRequest(backendWith(true), request([0, 2]))).toEqual([3, 2]);
    expect(validateForwardRequest(backendWith(true), request([3, 1]))).toEqual([3, 2]);
  });

  it('refuses them on a backend that does not say it supports them (absent or false)', () => {
    for (const support of [undefined, false]) {
      expect(() => validateForwardRequest(backendWith(support), request([1, 1]))).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_CAPABILITY' }));
    }
  });

  it('refuses a length past the row, a wrong count, and lengths without returnCache', () => {
    const backend = backendWith(true);
    expect(() => validateForwardRequest(backend, request([1, 3]))).toThrow(/cacheLengths\[1\] is 3, outside 0\.\.2/);
    expect(() => validateForwardRequest(backend, request([1]))).toThrow(/cacheLengths has 1 entries/);
    expect(() => validateForwardRequest(backend, request([1, 1], false))).toThrow(/cacheLengths needs returnCache/);
    expect(() => validateForwardRequest(backend, request([1.5, 1]))).toThrow(/outside/);
  });
});
