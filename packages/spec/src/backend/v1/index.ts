export type {
  BackendV1,
  BackwardRequestV1,
  BackwardResultV1,
  CacheHandleV1,
  ForwardRequestV1,
  ForwardResultV1,
  HeadInfoV1,
  HeadKindV1,
  HvpRequestV1,
  HvpResultV1,
  ModelInfoV1,
  PrecisionV1,
  ReadRequestV1,
  ReadGradientsV1,
  ReadResultV1,
  TangentV1,
  WeightDtypeV1,
} from './backend-v1.js';
export { weightDtypes } from './backend-v1.js';
export { checkReadGradientShapes, resolveReadGradients, validateBackwardRequest, validateHvpRequest } from './validate-backward-request.js';
export { validateForwardRequest } from './validate-forward-request.js';
export { decoderModelInfo, describeDecoder } from './decoder-model-info.js';
