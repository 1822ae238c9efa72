import { type BackendV1, type ForwardRequestV1, validateForwardRequest, Capability, defineDecoderConfig, type DecoderModel } from '@reward-lens/spec';

// Broken backends the kit must catch: each is the float64 reference on weights loaded wrongly,
// the way a real backend gets them wrong.

/** `gate_proj` and `up_proj` swapped in every layer (the README's third-party form passed 28 of 28 with this). */
export function swapGateAndUp(model: DecoderModel): DecoderModel {
  const tensors = new Map(model.tensors);
  for (let layer = 0; layer < model.config.numLayers; layer++) {
    const gate = `model.layers.${layer}.mlp.gate_proj.weight`;
    const up = `model.layers.${layer}.mlp.up_proj.weight`;
    tensors.set(gate, model.tensors.get(up)!);
    tensors.set(up, model.tensors.get(gate)!);
  }
  return { config: model.config, tensors };
}

/** Every head's hidden layer dropped (what three backends did to Qwen2.5-Math-PRM's `score.0` → ReLU). */
export function dropHiddenLayers(model: DecoderModel): DecoderModel {
  const heads = model.config.heads.map((head) => {
    if (head.kind === 'lm' || !head.hidden) return head;
    const { hidden: _dropped, ...rest } = head;
    return rest;
  });
  return { config: defineDecoderConfig({ ...model.config, heads }), tensors: model.tensors };
}

/** Rotary embeddings with the wrong base (a config read with the wrong `rope_theta`). */
export function wrongRopeBase(model: DecoderModel): DecoderModel {
  return { config: defineDecoderConfig({ ...model.config, ropeTheta: model.config.ropeTheta * 3 }), tensors: model.tensors };
}

/** Hides capabilities and the cache, refusing their requests as the spec says. */
export function withoutCapabilities(backend: BackendV1, removed: number, options: { cache: boolean }): BackendV1 {
  const wrapper: BackendV1 = {
    specificationVersion: 'v1',
    name: backend.name,
    capabilities: backend.capabilities & ~removed,
    precision: backend.precision,
    supportsCache: options.cache && backend.supportsCache,
    info: backend.info,
    async doForward(request: ForwardRequestV1) {
      validateForwardRequest(wrapper, request);
      return backend.doForward(request);
    },
    dispose: () => backend.dispose(),
  };
  return wrapper;
}

/** Treats padding as tokens (ignores the attention mask): right padding hides it, left padding shifts every position. */
export function ignoringPadding(backend: BackendV1): BackendV1 {
  return {
    specificationVersion: 'v1',
    name: backend.name,
    capabilities: backend.capabilities,
    precision: backend.precision,
    supportsCache: backend.supportsCache,
    info: backend.info,
    doForward: (request) => backend.doForward(request.past ? request : { ...request, attentionMask: new Uint8Array(request.attentionMask.length).fill(1) }),
    dispose: () => backend.dispose(),
  };
}

export const readoutCapabilities = Capability.ACTIVATIONS | Capability.LINEAR_READOUT;
