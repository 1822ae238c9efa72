// The public API of @reward-lens/onnx-export, by name. It runs in browsers too; the folder writers
// (Node, file system) are in `@reward-lens/onnx-export/node`.
export { exportDecoderToOnnx, ONNX_IR_VERSION, ONNX_OPSET, type OnnxExportOptions } from './export-decoder-to-onnx.js';
export {
  dynamicAxes,
  headOutputNames,
  hiddenStatesName,
  onnxInputNames,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
  readOutputName,
  readPositionsName,
} from './onnx-names.js';
