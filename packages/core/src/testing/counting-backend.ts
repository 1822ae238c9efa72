import type { BackendV1, ForwardRequestV1 } from '@reward-lens/spec';

/** Wraps a real backend and counts its forward passes, the rows and the real (unpadded) tokens it saw. */
export function countingBackend(backend: BackendV1): BackendV1 & { forwardCalls: number; rowsSeen: number; tokensSeen: number } {
  const counted = {
    specificationVersion: 'v1' as const,
    name: backend.name,
    capabilities: backend.capabilities,
    precision: backend.precision,
    supportsCache: backend.supportsCache,
    ...(backend.supportsCacheLengths === true ? { supportsCacheLengths: true } : {}),
    info: backend.info,
    forwardCalls: 0,
    rowsSeen: 0,
    tokensSeen: 0,
    async doForward(request: ForwardRequestV1) {
      counted.forwardCalls += 1;
      counted.rowsSeen += request.batchSize;
      counted.tokensSeen += request.attentionMask.reduce((sum, mask) => sum + mask, 0);
      return backend.doForward(request);
    },
    dispose: () => backend.dispose(),
  };
  return counted;
}
