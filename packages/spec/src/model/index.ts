export {
  defineDecoderConfig,
  expectedTensorShapes,
  headWidth,
  type DecoderArchitecture,
  type DecoderConfig,
  type HeadHiddenLayer,
  type HeadSpec,
} from './decoder-config.js';
export { validateDecoderModel, type DecoderModel } from './decoder-model.js';
export {
  FINAL_NORM_WEIGHT,
  describeHead,
  describeHeads,
  formatHeadDescription,
  outputProjectionOf,
  unknownHeadOperation,
  type HeadDescription,
  type HeadOperation,
} from './head-description.js';
export { createRandomDecoder, tinyDecoderConfig } from './random-decoder.js';
export { createSeededRandom } from './seeded-random.js';
export { Q4_BLOCK, type QuantizedFormatV1, type QuantizedTensorV1 } from './quantized-tensor.js';
