import { backendCandidates, registeredBackends } from './registry.js';

/**
 * Whether a request for `backend` reads a model folder's safetensors weights rather than the
 * ONNX graph beside them, when the folder holds both: the named backend decides. A backend
 * named by the user that runs decoder weights and not ONNX graphs (`tiny`, `webgpu`) reads the
 * weights; `'auto'`, a backend that runs graphs, or one that does not say what it runs, reads the graph.
 *
 * @example
 * readsWeightsOverGraph('tiny'); // true
 * readsWeightsOverGraph('auto'); // false
 */
export function readsWeightsOverGraph(backend: string): boolean {
  if (backend === 'auto') return false;
  const kinds = registeredBackends().find((registration) => registration.name === backend)?.sourceKinds;
  return kinds?.includes('decoder') === true && !kinds.includes('onnx');
}

/**
 * Whether decoder weights for a request for `backend` go to a backend that takes a weight arena
 * (`BackendRegistration.takesWeightArena`): the named backend, or under `'auto'` the first
 * candidate that runs decoder weights. A loader then reads the weights into an arena; when that
 * guess is wrong (the first candidate turns out unavailable), the backend chosen copies them, as
 * it would have anyway.
 */
export function takesWeightArena(backend: string): boolean {
  const first = backendCandidates(backend, registeredBackends()).find((registration) => registration.sourceKinds?.includes('decoder') ?? true);
  return first?.takesWeightArena === true;
}
