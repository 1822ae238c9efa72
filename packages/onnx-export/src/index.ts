// The public API of @reward-lens/onnx-export, by name.
export { exportDecoderToOnnx, ONNX_IR_VERSION, ONNX_OPSET, type OnnxExportOptions } from './export-decoder-to-onnx.js';
export {
  DEFAULT_EXTERNAL_DATA_THRESHOLD_BYTES,
  ONNX_DATA_FILE,
  ONNX_MODEL_FILE,
  writeOnnxModelFolder,
  type OnnxModelFolderContents,
  type OnnxModelFolderResult,
} from './write-onnx-model-folder.js';
export { exportModelFolder, type ExportModelFolderOptions, type ExportModelFolderResult } from './export-model-folder.js';
export {
  dynamicAxes,
  headOutputNames,
  hiddenStatesName,
  onnxInputNames,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
} from './onnx-names.js';
