// The public API of @reward-lens/loaders/node, by name: the parts that read and write files with node:fs.
export { loadDecoderFolder, writeDecoderFolder, type DecoderFolder, type DecoderFolderContents } from './model-folder.js';
export { modelFilesFromFolder } from './node-model-files.js';
export { openSafetensorsFile, type SafetensorsFile } from './safetensors-file.js';
export { findOnnxGraph } from './onnx-graph-file.js';
export { readModelJsonFile, requireRegularFile } from './node-model-file.js';
export { readTokenizerPath } from './tokenizer-path.js';
export {
  openJsonRecords,
  describeRecordLabel,
  type JsonRecord,
  type JsonRecordError,
  type JsonRecordLabel,
  type JsonRecordSource,
} from './records/json-records.js';
export { readNumberedLines, type NumberedLine } from './records/read-numbered-lines.js';
export { detectInputFormat, type DetectedInput } from './records/detect-input-format.js';
