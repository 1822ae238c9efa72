export {
  parseSafetensors,
  parseSafetensorsEntries,
  parseSafetensorsMetadata,
  serializeSafetensors,
  type SafetensorsDtype,
  type SafetensorsEntry,
  type SafetensorsTensor,
} from './safetensors.js';
export {
  decoderConfigFromHf,
  decoderConfigToHf,
  type DecoderConfigFromHf,
  type DecoderConfigFromHfOptions,
  type DecoderConfigToHfOptions,
} from './hf-config.js';
export { collectDecoderTensors, decoderTensorName, type TensorSource } from './decoder-tensors.js';
export { parseLlama2cCheckpoint, parseLlama2cHeader, permuteRotaryRows, type Llama2cHeader } from './llama2c-checkpoint.js';
export { convertLlama2cToHf, type Llama2cConversion } from './llama2c-conversion.js';
export { readExactly, readJsonFile, readWholeFile, requireEntry, type ModelFile, type ModelFiles } from './model-files.js';
export { modelFilesFromEntries, type ModelFileContents } from './in-memory-model-files.js';
export { loadDecoderFiles, type DecoderFilesOptions, type DecoderFolder, type LoadProgress, type PieceQuantizer, quantizeFailure } from './decoder-files.js';
export { readSafetensorsFrom, type TensorAllocator } from './safetensors-reader.js';
export { chooseOnnxGraph, chooseOnnxGraphOf, onnxGraphFileName, onnxReadPositionsFileName, type ChosenOnnxGraph } from './onnx-graph-choice.js';
export { readTokenizerFiles, type TokenizerFiles } from './tokenizer-files.js';
export { firstInvalidUtf8Byte } from './records/utf8-validation.js';
