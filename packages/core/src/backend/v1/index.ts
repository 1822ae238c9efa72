export type {
  BackendV1,
  CacheHandleV1,
  ForwardRequestV1,
  ForwardResultV1,
  HeadInfoV1,
  HeadKindV1,
  ModelInfoV1,
  PrecisionV1,
  ReadRequestV1,
  ReadResultV1,
} from './backend-v1.js';
export { validateForwardRequest } from './validate-forward-request.js';
export { decoderModelInfo, describeDecoder } from './decoder-model-info.js';
