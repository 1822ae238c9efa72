export { RewardLensError } from './reward-lens-error.js';
export { UnsupportedCapabilityError } from './unsupported-capability-error.js';
export { InvalidInputError } from './invalid-input-error.js';
export { BackendResolutionError, type SkippedBackend } from './backend-resolution-error.js';
export { BackendContractError } from './backend-contract-error.js';
export { ModelLoadError } from './model-load-error.js';
export { SequenceTooLongError } from './sequence-too-long-error.js';
export { NonFiniteOutputError } from './non-finite-output-error.js';
export { BackendWorkerError } from './backend-worker-error.js';
