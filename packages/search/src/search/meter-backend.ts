import type { BackendV1, ForwardRequestV1 } from '@reward-lens/core';

/** Counts of what a backend ran: tokens (real ones, padding not counted) and forward passes. */
export interface BackendMeter {
  readonly tokensSeen: number;
  readonly forwardCalls: number;
}

/**
 * Wraps a backend and counts the real tokens of every forward pass (cached tokens are not run, so
 * not counted). A search given the meter reports exactly the tokens the PRM ran.
 *
 * @example
 * const backend = meterBackend(prm.backend);
 * const metered = ProcessRM.fromBackend(backend, prm.tokenizer, { recipe: prm.recipe });
 * await search(metered, policy, problem, { strategy: 'beam', n: 8, meter: backend });
 */
export function meterBackend(backend: BackendV1): BackendV1 & BackendMeter {
  let tokensSeen = 0;
  let forwardCalls = 0;
  return {
    specificationVersion: 'v1',
    name: backend.name,
    capabilities: backend.capabilities,
    precision: backend.precision,
    supportsCache: backend.supportsCache,
    info: backend.info,
    get tokensSeen() {
      return tokensSeen;
    },
    get forwardCalls() {
      return forwardCalls;
    },
    async doForward(request: ForwardRequestV1) {
      forwardCalls++;
      for (let index = 0; index < request.attentionMask.length; index++) tokensSeen += request.attentionMask[index]!;
      return backend.doForward(request);
    },
    dispose: () => backend.dispose(),
  };
}
