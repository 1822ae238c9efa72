import { isDecoderSource, unsupportedSourceReason, type BackendRegistration } from '@reward-lens/spec';
import { createFloat32Backend } from './float32-backend.js';

/**
 * How the example joins the registry: `registerBackend(float32BackendRegistration)`, then
 * `resolveBackend('float32-example', source)`. Explicit-only, so `'auto'` never picks it over the
 * first-party backends; it runs decoder weights and skips any other kind of source with a reason.
 */
export const float32BackendRegistration: BackendRegistration = {
  name: 'float32-example',
  priority: 1,
  explicitOnly: true,
  sourceKinds: ['decoder'],
  unavailableReason: (source) => (isDecoderSource(source) ? null : unsupportedSourceReason('float32-example', source, ['decoder'])),
  async create(source) {
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('float32-example', source, ['decoder']));
    return createFloat32Backend(source.model);
  },
};
