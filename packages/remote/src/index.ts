// The public API of @reward-lens/remote, by name. Browser-safe (fetch only); test servers are on `./testing` (Node).
export { fromVllm } from './vllm/from-vllm.js';
export { connectVllm, type VllmConnection, type VllmOptions } from './vllm/connect-vllm.js';
export {
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
} from './vllm/vllm-pooling-protocol.js';
export {
  OpenAICompletionsClient,
  createOpenAICompletionsClient,
  type CompletionRequest,
  type CompletionResult,
  type CountedGeneration,
  type OpenAICompletionsOptions,
} from './openai/openai-completions-client.js';
export type { RemoteClientOptions } from './http/remote-client-options.js';
export { defaultRetryPolicy, type RetryPolicy } from './http/retry-policy.js';
export { serverErrorMessage } from './http/server-error-message.js';
export { RemoteHttpError } from './http/remote-http-error.js';
export { RemoteModelNotFoundError } from './http/remote-model-not-found-error.js';
export { RemoteResponseError } from './http/remote-response-error.js';
export { RemoteTimeoutError } from './http/remote-timeout-error.js';
export { RemoteUnreachableError } from './http/remote-unreachable-error.js';
