// @reward-lens/spec/internal: what first-party backends share beyond the spec itself. Third-party
// backends may use it too; it follows the package's semver like the main entry.
export { BackendCacheHandle, collectedHolding, ownCacheHandle, type CacheHolding, type CacheOwner } from './cache-handle.js';
export { padRows, type PaddedRows } from './pad-rows.js';
export { resolveHeadTensors, type ResolvedHead, type ResolvedHeadStep } from './resolve-head-tensors.js';
// Process-wide state shared by every copy of spec (ESM and CommonJS builds, two installed versions),
// and the loaders' handling of the options every backend's create takes.
export { processWide } from '../process-wide.js';
export { backendCreateOptions, checkDtype, checkThreads, unsupportedDtypeReason } from '../backend/registry.js';
// Memory a loader reads weights into, for a backend to take where they lie (backend-tiny adopts it).
export { arenaPlacement, createWeightArena, type ArenaMemory, type ArenaPlacement, type WeightArena } from './weight-arena.js';
// Quantized weights: their layout, quantizing and dequantizing, and which tensors a dtype quantizes.
export {
  dequantizeRows,
  quantizable,
  quantizedBytes,
  quantizedTensorIn,
  quantizedTensorOver,
  quantizeInto,
  quantizeTensor,
} from '../model/quantized-tensor.js';
export { heldFormat, quantizationPlan, type PlannedQuantization, type QuantizationPlan } from '../model/quantization-plan.js';
export { bfloat16ToFloat32Bits, float16ToFloat32Bits, toBfloat16Bits, toFloat16Bits } from '../model/half-precision.js';
