import { backendCandidates, registeredBackends, unsupportedDtypeReason } from './registry.js';
import type { WeightDtypeV1 } from './v1/backend-v1.js';

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
  const kinds = namedSourceKinds(backend);
  return kinds?.includes('decoder') === true && !kinds.includes('onnx');
}

/** The source kinds the registration of a backend named by the user lists; undefined under `'auto'`, for an unknown name, or where it does not say. */
function namedSourceKinds(backend: string): readonly string[] | undefined {
  if (backend === 'auto') return undefined;
  return registeredBackends().find((registration) => registration.name === backend)?.sourceKinds;
}

/**
 * Whether a request for `backend` is handed a weights folder unread (`DecoderFolderSource`)
 * rather than the weights read into memory: only a backend named by the user (never `'auto'`,
 * whose candidates may turn out unavailable) whose registration lists `decoder-folder`.
 *
 * @example
 * readsDecoderFolders('onnx-node'); // true once @reward-lens/backend-onnx-node is registered
 * readsDecoderFolders('auto'); // false
 */
export function readsDecoderFolders(backend: string): boolean {
  return namedSourceKinds(backend)?.includes('decoder-folder') === true;
}

/**
 * Whether decoder weights for a request for `backend` go to a backend that takes a weight arena
 * (`BackendRegistration.takesWeightArena`): the named backend, or under `'auto'` the first
 * candidate that runs decoder weights. A loader then reads the weights into an arena; when that
 * guess is wrong (the first candidate turns out unavailable), the backend chosen copies them, as
 * it would have anyway. Under `dtype`, only a backend that holds that dtype is a candidate (a
 * loader quantizing as it reads puts the quantized tensors in the arena too).
 */
export function takesWeightArena(backend: string, dtype: WeightDtypeV1 = 'fp32'): boolean {
  const first = backendCandidates(backend, registeredBackends()).find(
    (registration) => (registration.sourceKinds?.includes('decoder') ?? true) && unsupportedDtypeReason(registration, dtype) === null,
  );
  return first?.takesWeightArena === true;
}
