export { connectVllm, type VllmConnection, type VllmOptions } from './connect-vllm.js';
export type { RemoteStepReader } from './vllm-step-reader.js';
export { RemoteHttpError } from './remote-http-error.js';
export { RemoteModelNotFoundError } from './remote-model-not-found-error.js';
export { RemoteResponseError } from './remote-response-error.js';
export { RemoteTimeoutError } from './remote-timeout-error.js';
export { RemoteUnreachableError } from './remote-unreachable-error.js';
export {
  errorMessageOf,
  poolingRowsOf,
  servedModelsOf,
  type PoolingRowsResult,
  type VllmErrorResponse,
  type VllmModelCard,
  type VllmModelList,
  type VllmPoolingRequest,
  type VllmPoolingResponse,
  type VllmPoolingResponseData,
  type VllmUsageInfo,
} from './vllm-pooling-protocol.js';
